"""The Play page's form: variant, deck, seats, partnership, bot level, house rules, move time."""

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


def mineiro_style_field() -> forms.ChoiceField:
    # Seed 002's Mineiro (issue 16); a Mineiro option, ignored for Paulista. Not required, so that
    # choices remembered before it existed still validate (blank = classic).
    return forms.ChoiceField(
        label=_("Mineiro style"),
        choices=MINEIRO_STYLE_CHOICES,
        initial="classic",
        required=False,
        help_text=_("Mineiro only; ignored for Paulista."),
    )


class PlayForm(forms.Form):
    mode = forms.ChoiceField(
        label=_("Mode"),
        choices=[("single", _("Single match")), ("tournament", _("Tournament (4 wins in a row)"))],
        initial="single",
    )
    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES, initial="paulista")
    mineiro_style = mineiro_style_field()
    deck = forms.ChoiceField(label=_("Deck"), choices=DECK_CHOICES, initial="dirty")
    seats = forms.TypedChoiceField(
        label=_("Players"), coerce=int, choices=[(2, _("2 players")), (4, _("4 players"))], initial=2
    )
    partnership = forms.TypedChoiceField(
        label=_("With 4 players"),
        coerce=lambda v: v == "yes",
        choices=[("yes", _("Teams of two")), ("no", _("Each for themselves"))],
        initial="yes",
    )
    bot_level = forms.ChoiceField(
        label=_("AI level"),
        choices=[
            (BotLevel.EASY, BotLevel.EASY.label),
            (BotLevel.MEDIUM, BotLevel.MEDIUM.label),
            (BotLevel.HARD, BotLevel.HARD.label),
            (BotLevel.EXPERT, BotLevel.EXPERT.label),
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
    )
    all_tied = forms.ChoiceField(
        label=_("All rounds tied"),
        choices=[("dealer", _("Dealer's side wins")), ("nobody", _("Nobody scores"))],
        initial="dealer",
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Seconds per move"), coerce=int, choices=[(s, s) for s in MOVE_SECONDS], initial=99
    )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        face_down = {"": None, "on": True, "off": False}[data.get("face_down") or ""]
        try:
            data["rules"] = engine.RuleSet.from_dict(
                {
                    "variant": data["variant"],
                    "deck": data["deck"],
                    "seats": data["seats"],
                    "partnership": data["partnership"] if data["seats"] == 4 else False,
                    "face_down": face_down,
                    "all_tied": data["all_tied"],
                    "mineiro_style": (data.get("mineiro_style") or "classic")
                    if data["variant"] == "mineiro"
                    else "classic",
                }
            )
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


def remember_options(session, data) -> None:
    """Keep the choices of a valid Play form (its raw values) for the next quick play."""
    session[LAST_OPTIONS_KEY] = {name: data.get(name, "") for name in PlayForm.base_fields}


def last_options(session) -> dict:
    """The last valid choices, or the form's defaults (also when stored choices no longer validate)."""
    stored = session.get(LAST_OPTIONS_KEY)
    if stored and PlayForm(stored).is_valid():
        return dict(stored)
    form = PlayForm()
    return {name: "" if form[name].value() is None else str(form[name].value()) for name in PlayForm.base_fields}


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
