"""The Play page's form: a table (one of four presets: variant and seats), the AI level, and the rest
(mode, partnership, Mineiro style, deck, house rules, move time), of which only what applies counts."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import BotLevel

MOVE_SECONDS = (30, 60, 99)
# The Play page's last submitted choices, kept in the session: the home page's quick play and the
# Play page start from them.
LAST_OPTIONS_KEY = "games:play_options"

# The rule choices that the Play page and a room's form share (rooms/forms.py).
VARIANT_CHOICES = [("paulista", "Paulista"), ("mineiro", "Mineiro")]
DECK_CHOICES = [("dirty", _("Dirty (40 cards)")), ("clean", _("Clean (24/27 cards)"))]
MINEIRO_STYLE_CHOICES = [
    ("classic", _("Classic (2, 4, 6, 10, 12)")),
    ("online", _("Online (2, 4, 8, nine wins; two cards after a tied first round)")),
]


def mineiro_style_field(**more) -> forms.ChoiceField:
    # Seed 002's Mineiro (issue 16); a Mineiro option, ignored for Paulista. Not required, so that
    # choices remembered before it existed still validate (blank = classic).
    options: dict[str, Any] = {
        "label": _("Mineiro style"),
        "choices": MINEIRO_STYLE_CHOICES,
        "initial": "classic",
        "required": False,
        "help_text": _("Mineiro only; ignored for Paulista."),
    }
    return forms.ChoiceField(**(options | more))


# The Play page's four tables (issue 30 item 7): each a whole match setup, variant and seats. A posted
# `preset` stands for both (the quick play of the home page and older clients post them as they are).
PRESETS = {
    "paulista-2": ("paulista", 2),
    "paulista-4": ("paulista", 4),
    "mineiro-2": ("mineiro", 2),
    "mineiro-4": ("mineiro", 4),
}
# Two cards drawn on each table's tile: Paulista's highest common cards, Mineiro's zap and copas.
PRESET_CARDS = {"paulista": ("3C", "2H"), "mineiro": ("4C", "7H")}
# The options that apply to some tables only: the page shows them only there (its CSS reads the same
# words in `data-applies`), and the server ignores them elsewhere (whatever was posted). `four`: 4
# seats; `mineiro`: the Mineiro variant; `single`: a single match (a tournament's stages have their own
# AI levels); `teams`: 4 seats played in teams of two.
APPLIES_TO = {
    "partnership": ("four",),
    "mineiro_style": ("mineiro",),
    "bot_level": ("single",),
    "partner_signals": ("four", "single", "teams"),
}
# Folded under "More options", in this order; the table and the AI level stay in sight.
MORE_OPTIONS = (
    "mode",
    "partnership",
    "partner_signals",
    "mineiro_style",
    "move_seconds",
    "deck",
    "face_down",
    "all_tied",
)


def applies(name: str, *, variant: str, seats: int, mode: str, teams: bool = True) -> bool:
    """Whether the option `name` counts for a match of this variant, seats, mode and partnership."""
    met = {"four": seats == 4, "mineiro": variant == "mineiro", "single": mode == "single", "teams": teams}
    return all(met[need] for need in APPLIES_TO.get(name, ()))


class PlayForm(forms.Form):
    # Every choice is a group of radio buttons: each option's whole text is on the page, never cut.
    preset = forms.ChoiceField(label=_("Table"), choices=[(name, name) for name in PRESETS], required=False)
    mode = forms.ChoiceField(
        label=_("Mode"),
        choices=[("single", _("Single match")), ("tournament", _("Tournament (4 wins in a row)"))],
        initial="single",
        widget=forms.RadioSelect,
    )
    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES, initial="paulista")
    mineiro_style = mineiro_style_field(widget=forms.RadioSelect, help_text="")
    deck = forms.ChoiceField(label=_("Deck"), choices=DECK_CHOICES, initial="dirty", widget=forms.RadioSelect)
    seats = forms.TypedChoiceField(
        label=_("Players"), coerce=int, choices=[(2, _("2 players")), (4, _("4 players"))], initial=2
    )
    partnership = forms.TypedChoiceField(
        label=_("With 4 players"),
        coerce=lambda v: v == "yes",
        choices=[("yes", _("Teams of two")), ("no", _("Each for themselves"))],
        initial="yes",
        widget=forms.RadioSelect,
    )
    partner_signals = forms.TypedChoiceField(
        label=_("Partner signals"),
        coerce=lambda v: v == "yes",
        choices=[("no", _("No signals")), ("yes", _("With signals"))],
        initial="no",
        required=False,  # choices remembered before it existed still validate (blank = no signals, below)
        widget=forms.RadioSelect,
    )
    bot_level = forms.ChoiceField(
        label=_("AI level"),
        widget=forms.RadioSelect,
        choices=[
            (BotLevel.EASY, BotLevel.EASY.label),
            (BotLevel.MEDIUM, BotLevel.MEDIUM.label),
            (BotLevel.HARD, BotLevel.HARD.label),
            (BotLevel.EXPERT, BotLevel.EXPERT.label),
            (BotLevel.CAREFUL, BotLevel.CAREFUL.label),
        ],
        initial=BotLevel.MEDIUM,
    )
    face_down = forms.ChoiceField(
        label=_("Face-down cards"),
        choices=[
            ("", _("Variant's default")),
            ("on", _("Allowed from round 2")),
            ("off", _("Not allowed")),
        ],
        required=False,
        widget=forms.RadioSelect,
    )
    all_tied = forms.ChoiceField(
        label=_("All rounds tied"),
        choices=[("dealer", _("Dealer's side wins")), ("nobody", _("Nobody scores"))],
        initial="dealer",
        widget=forms.RadioSelect,
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Seconds per move"),
        coerce=int,
        choices=[(s, f"{s} s") for s in MOVE_SECONDS],
        initial=99,
        widget=forms.RadioSelect,
    )

    def __init__(self, data=None, *args, **kwargs):
        super().__init__(with_preset(data), *args, **kwargs)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        # Every value was checked above; that of an option that does not apply to this table is ignored
        # (no teams for two, the classic style for Paulista, no AI level for a tournament's stages).
        table = {"variant": data["variant"], "seats": data["seats"], "mode": data["mode"]}
        for name, default in (
            ("partnership", False),
            ("mineiro_style", "classic"),
            ("bot_level", None),
            ("partner_signals", False),
        ):
            if not applies(name, **table, teams=bool(data.get("partnership"))):
                data[name] = default
        data["partner_signals"] = data.get("partner_signals") is True
        face_down = {"": None, "on": True, "off": False}[data.get("face_down") or ""]
        try:
            data["rules"] = engine.RuleSet.from_dict(
                {
                    "variant": data["variant"],
                    "deck": data["deck"],
                    "seats": data["seats"],
                    "partnership": data["partnership"],
                    "face_down": face_down,
                    "all_tied": data["all_tied"],
                    "mineiro_style": data.get("mineiro_style") or "classic",
                }
            )
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data

    # --- what the Play page shows ---------------------------------------------------------------

    def value_of(self, name: str) -> str:
        """The option as the page shows it: as posted, else as remembered (the form's initial)."""
        value = self[name].value()
        return "" if value is None else str(value)

    def chosen_preset(self) -> str:
        chosen = f"{self.value_of('variant')}-{self.value_of('seats')}"
        return chosen if chosen in PRESETS else "paulista-2"

    def presets(self) -> list[dict]:
        """The four tables' tiles: what each one is, which one is chosen, and the teams' words (both are on
        the page; the partnership chosen below shows one)."""
        chosen, teams = self.chosen_preset(), self.value_of("partnership") != "no"
        return [
            {
                "value": value,
                "variant": dict(VARIANT_CHOICES)[variant],
                "seats": seats,
                "players": _("2 players") if seats == 2 else _("4 players"),
                "teams": teams,
                "cards": PRESET_CARDS[variant],
                "checked": value == chosen,
            }
            for value, (variant, seats) in PRESETS.items()
        ]

    def more_chosen(self) -> list[str]:
        """The options under "More options" that differ from their default, in words (the folded summary)."""
        variant, seats = PRESETS[self.chosen_preset()]
        mode, teams = self.value_of("mode"), self.value_of("partnership") != "no"
        words = []
        for name in MORE_OPTIONS:
            field, value = self.fields[name], self.value_of(name)
            default = "" if field.initial is None else str(field.initial)
            if value != default and value and applies(name, variant=variant, seats=seats, mode=mode, teams=teams):
                choices = getattr(field, "choices", ())  # every option of "Mais opções" is a choice
                words.append(str(dict((str(k), v) for k, v in choices).get(value, "")))
        return [word for word in words if word]

    def more_has_errors(self) -> bool:
        return any(self[name].errors for name in MORE_OPTIONS)


def with_preset(data):
    """The posted options with a chosen table (`preset`) spelled out as the variant and seats it stands
    for. A preset that is no table is left to the form to refuse; no preset: variant and seats as posted."""
    if data is None:
        return None
    preset = data.get("preset")
    if preset not in PRESETS:
        return data
    data = data.copy()
    variant, seats = PRESETS[preset]
    data["variant"], data["seats"] = variant, str(seats)
    return data


# The choices a quick play repeats: all but the preset (spelled out as variant and seats).
REMEMBERED = [name for name in PlayForm.base_fields if name != "preset"]


def remember_options(session, data) -> None:
    """Keep the choices of a valid Play form (its raw values, the preset spelled out) for the next quick play."""
    session[LAST_OPTIONS_KEY] = {name: data.get(name, "") for name in REMEMBERED}


def last_options(session) -> dict:
    """The last valid choices, or the form's defaults (also when stored choices no longer validate)."""
    stored = session.get(LAST_OPTIONS_KEY)
    if stored and PlayForm(stored).is_valid():
        return {name: stored.get(name, "") for name in REMEMBERED}
    form = PlayForm()
    return {name: "" if form[name].value() is None else str(form[name].value()) for name in REMEMBERED}


def options_summary(options: dict) -> list[str]:
    """The choices in a few words for the quick-play button, e.g. ["Paulista", "1 against 1", "AI: Medium"]."""
    variant = dict(PlayForm.base_fields["variant"].choices).get(options.get("variant"), "")  # type: ignore[attr-defined]
    if options.get("variant") == "mineiro" and options.get("mineiro_style") == "online":
        variant = _("Online Mineiro")
    if options.get("mode") == "tournament":
        return [str(variant), str(_("Tournament"))]
    if str(options.get("seats")) != "4":
        players = _("1 against 1")
    elif options.get("partnership") == "no":
        players = _("4 players, each for themselves")
    else:
        players = _("2 against 2")
    level = dict(PlayForm.base_fields["bot_level"].choices).get(options.get("bot_level"), "")  # type: ignore[attr-defined]
    return [str(variant), str(players), str(_("AI: %(level)s") % {"level": level})]
