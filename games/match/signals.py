"""Partner signals: in a 4-seat team match whose room enabled them, a seat shows its partner a classic sign.

A signal is stored on the match row (`Match.signals`, under the row lock, like a move) so a reload
shows it again, and lasts until its hand ends: the partner sees the last one sent in the hand in play
(docs/decisions.md, "Spectators and partner signals"). It never changes the version: it is not a move.
It travels only to the two partners' seat groups (`publishing.publish_signal`), never to the table's
group, the opponents' or the spectators'.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games import engine
from games.match.bot_signs import signal_for_hand
from games.match.locked import locked_match
from games.match.moves import ActionRefused
from games.models import Match

# The classic signs between partners, in the order of the panel.
# "zap" is the 4 of clubs, "copas" the 7 of hearts, "espadilha" the ace of spades, "ouros" the 7 of
# diamonds (Paulista's fixed manilhas): the names players use whatever their language.
SIGNALS = {
    "zap": _("Zap"),
    "copas": _("Copas"),
    "espadilha": _("Espadilha"),
    "ouros": _("Ouros"),
    "three": _("A three"),
    "nothing": _("Nothing"),
}


def partner_of(view: Mapping[str, Any]) -> int | None:
    """The viewer's partner in a 4-seat team match (the other seat of the viewer's side), else None."""
    me = view["seat"]
    if me is None or view["seats"] != 4 or len(view["sides"][view["side"]]) != 2:
        return None
    return next((s for s in view["sides"][view["side"]] if s != me), None)


def signal_facts(signals: dict[str, Any], view: Mapping[str, Any], enabled: bool) -> dict[str, Any]:
    """What this viewer's signals panel shows: whether it is offered, the partner's signal and the viewer's
    own for the hand in play (a signal lasts until its hand ends). Nobody but the two partners gets any."""
    partner = partner_of(view) if enabled else None
    if partner is None:
        return {"enabled": False, "received": None, "sent": None}

    def this_hand(seat: int | None) -> str | None:
        return None if view["match_over"] else signal_for_hand(signals, seat, view["hand_number"])

    return {"enabled": True, "received": this_hand(partner), "sent": this_hand(view["seat"])}


def send_signal(public_id: str, seat_number: int, signal) -> Match:
    """Store `seat_number`'s signal for the hand in play; ActionRefused (nothing changes) when it may not."""
    if not isinstance(signal, str) or signal not in SIGNALS:
        raise ActionRefused("unknown_signal", _("That signal does not exist."))
    with transaction.atomic():
        match = locked_match(public_id)
        if match is None:
            raise ActionRefused("no_match", _("This match does not exist."))
        state = engine.from_json(match.state)
        view = engine.seat_view(state, seat_number)
        if partner_of(view) is None:
            raise ActionRefused("no_partner", _("Signals are only for 4-seat matches played in pairs."))
        if not match.partner_signals:
            raise ActionRefused("signals_off", _("This table does not allow partner signals."))
        if match.status != Match.Status.ACTIVE or state.over:
            raise ActionRefused("match_over", _("The match is over."))
        match.signals = {**match.signals, str(seat_number): {"hand": state.hand_number, "signal": signal}}
        match.save(update_fields=["signals"])
    return match
