"""The room forms: create (options, public or private), the private room's password, quick join, lobby filters."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine
from games.forms import DECK_CHOICES, VARIANT_CHOICES, mineiro_style_field

from .models import MOVE_SECONDS, Room

TABLES = [("2", _("1 against 1")), ("4t", _("2 against 2")), ("4s", _("4 players, each for themselves"))]


def table_rules(variant: str, table: str, **more) -> engine.RuleSet:
    """A RuleSet from a variant and a table choice ("2", "4t" teams, "4s" each for themselves)."""
    seats = 2 if table == "2" else 4
    return engine.RuleSet.from_dict({"variant": variant, "seats": seats, "partnership": table == "4t", **more})


class CreateRoomForm(forms.Form):
    visibility = forms.ChoiceField(
        label=_("Who may join"),
        choices=[("public", _("Public: listed in the lobby")), ("private", _("Private: by invite link and password"))],
        initial="public",
    )
    name = forms.CharField(label=_("Room name (private rooms)"), max_length=40, required=False, strip=True)
    password = forms.CharField(
        label=_("Password (private rooms)"),
        max_length=64,
        required=False,
        strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
    )
    friends_only = forms.BooleanField(
        label=_("My friends sit without the password (private rooms)"),
        help_text=_("Anyone else still needs the invite link and the password."),
        required=False,
    )
    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES, initial="paulista")
    table = forms.ChoiceField(label=_("Players"), choices=TABLES, initial="2")
    mineiro_style = mineiro_style_field()
    deck = forms.ChoiceField(
        label=_("Deck"),
        choices=DECK_CHOICES,
        initial="dirty",
    )
    face_down = forms.ChoiceField(
        label=_("Face-down cards"),
        choices=[("", _("Variant's default")), ("on", _("Allowed from round 2")), ("off", _("Not allowed"))],
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
    mode = forms.ChoiceField(label=_("Kind of room"), choices=Room.Mode.choices, initial=Room.Mode.COMPETITIVE)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if data["visibility"] == "private":
            if not data.get("name"):
                self.add_error("name", _("A private room needs a name."))
            if not data.get("password"):
                self.add_error("password", _("A private room needs a password."))
            elif len(data["password"]) < 4:
                self.add_error("password", _("Use at least 4 characters for the password."))
        face_down = {"": None, "on": True, "off": False}[data.get("face_down") or ""]
        try:
            mineiro_style = (data.get("mineiro_style") or "classic") if data["variant"] == "mineiro" else "classic"
            data["rules"] = table_rules(
                data["variant"],
                data["table"],
                deck=data["deck"],
                face_down=face_down,
                all_tied=data["all_tied"],
                mineiro_style=mineiro_style,
            )
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


class RoomPasswordForm(forms.Form):
    password = forms.CharField(
        label=_("Room password"), max_length=64, strip=False, widget=forms.PasswordInput(render_value=False)
    )


class QuickJoinForm(forms.Form):
    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES, initial="paulista")
    table = forms.ChoiceField(label=_("Players"), choices=TABLES, initial="2")

    def rules(self) -> engine.RuleSet:
        return table_rules(self.cleaned_data["variant"], self.cleaned_data["table"])


class LobbyFilterForm(forms.Form):
    variant = forms.ChoiceField(label=_("Variant"), choices=[("", _("Any"))] + VARIANT_CHOICES, required=False)  # type: ignore[operator]
    table = forms.ChoiceField(label=_("Players"), choices=[("", _("Any"))] + TABLES, required=False)

    def filters(self) -> dict:
        if not self.is_valid():
            return {"variant": "", "seats": ""}
        return {"variant": self.cleaned_data["variant"], "seats": self.cleaned_data["table"]}


class TableOptionsForm(forms.Form):
    """The chief's options panel, as posted. Only the shape is checked here; what is allowed (a stake
    everyone covers, none in practice, signals only in pairs) is the service's rule (rooms.options)."""

    move_seconds = forms.TypedChoiceField(coerce=int, choices=[(s, s) for s in MOVE_SECONDS])
    mode = forms.ChoiceField(choices=Room.Mode.choices)
    stake_coins = forms.IntegerField(error_messages={"invalid": _("A stake is a whole number of coins, zero or more.")})
    is_private = forms.BooleanField(required=False)
    password = forms.CharField(max_length=64, required=False, strip=False)
    allow_spectators = forms.BooleanField(required=False)
    partner_signals = forms.BooleanField(required=False)
