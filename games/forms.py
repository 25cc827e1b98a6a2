"""The Play page's form: variant, deck, seats, partnership, bot level, house rules, move time."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine

from .models import BotLevel

MOVE_SECONDS = (30, 60, 99)


class PlayForm(forms.Form):
    mode = forms.ChoiceField(
        label=_("Mode"),
        choices=[("single", _("Single match")), ("tournament", _("Tournament (4 wins in a row)"))],
        initial="single",
    )
    variant = forms.ChoiceField(
        label=_("Variant"), choices=[("paulista", "Paulista"), ("mineiro", "Mineiro")], initial="paulista"
    )
    deck = forms.ChoiceField(
        label=_("Deck"),
        choices=[("dirty", _("Dirty (40 cards)")), ("clean", _("Clean (24 Paulista / 27 Mineiro)"))],
        initial="dirty",
    )
    seats = forms.TypedChoiceField(
        label=_("Players"), coerce=int, choices=[(2, _("2: you against the AI")), (4, _("4 players"))], initial=2
    )
    partnership = forms.TypedChoiceField(
        label=_("With 4 players"),
        coerce=lambda v: v == "yes",
        choices=[("yes", _("Teams: you and an AI partner against two AI")), ("no", _("Everyone for themselves"))],
        initial="yes",
    )
    bot_level = forms.ChoiceField(
        label=_("AI level"),
        choices=[
            (BotLevel.EASY, BotLevel.EASY.label),
            (BotLevel.MEDIUM, BotLevel.MEDIUM.label),
            (BotLevel.HARD, BotLevel.HARD.label),
        ],
        initial=BotLevel.MEDIUM,
    )
    face_down = forms.ChoiceField(
        label=_("Face-down cards"),
        choices=[
            ("", _("Variant's default (Paulista: on, Mineiro: off)")),
            ("on", _("Allowed from round 2")),
            ("off", _("Not allowed")),
        ],
        required=False,
    )
    all_tied = forms.ChoiceField(
        label=_("All three rounds tied"),
        choices=[("dealer", _("The dealer's side wins")), ("nobody", _("Nobody scores"))],
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
                }
            )
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data
