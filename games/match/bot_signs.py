"""The signs a table's machines send their person partners (issue 32 item 4).

At a 4-seat table in pairs that allows partner signals (a room's option, or the Play page's), a bot's
seat or a robot's (a person away or gone) signs its hand to its partner as the hand is dealt, as a
person does with the signals panel: the sign of its best card (engine `bots/signs.py`), stored like a person's
(`Match.signals`, under the move's row lock) and shown only to the partner (games.match.signals).
The other way, a machine deciding is told its person partner's sign for the hand in play
(`with_partner_sign`), which the search bot (`expert`) reads when it deals the unseen cards.
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.engine.bots.signs import own_sign, partner_seat
from games.models import Match


def signal_for_hand(signals: dict[str, Any], seat: int | None, hand_number: int) -> str | None:
    """The signal `seat` stored for this hand, if any: a signal lasts until its hand ends (a person's and
    a machine's alike; games.match.signals reads them through here too)."""
    entry: Any = signals.get(str(seat))
    return entry["signal"] if entry and entry.get("hand") == hand_number else None


def machines_sign(match: Match, state: engine.MatchState) -> bool:
    """Give every machine seat with a person partner its sign for the hand in play, once a hand;
    True if `match.signals` changed (the caller saves it with the move)."""
    if not match.partner_signals or state.over:
        return False
    machines = {s for s, bot in enumerate(match.seat_bots) if bot} | set(match.robot_seats)
    signals = dict(match.signals)
    for seat in sorted(machines):
        partner = partner_seat(state.facts, seat)
        if partner is None or match.seat_bots[partner]:
            continue  # a bot's partner is a bot: nobody to tell
        if signal_for_hand(signals, seat, state.hand_number) is not None:
            continue  # signed this hand already (or the person did, before a robot took the seat)
        signals[str(seat)] = {"hand": state.hand_number, "signal": own_sign(engine.seat_view(state, seat))}
    changed = signals != match.signals
    match.signals = signals
    return changed


def with_partner_sign(match: Match, state: engine.MatchState, seat: int, view: engine.SeatView) -> engine.SeatView:
    """A machine's view with its partner's sign for the hand in play, when the table allows signals."""
    partner = partner_seat(state.facts, seat)
    sign = signal_for_hand(match.signals, partner, state.hand_number) if match.partner_signals else None
    return view if partner is None or sign is None else {**view, "partner_signal": sign}
