"""What the replay page shows of a step: the sentence that tells its event, and its board.

Words and cards only: what the table looked like at each step is the engine's view (games.table.replay
turns it into a `Board`), and nothing here keeps any state of the match from one event to the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.table.presentation import HAND_REASONS, RAISE_CALLS, card_label


@dataclass(frozen=True)
class Play:
    """A card on the board: whose, and its face (None for a card the viewer may not know)."""

    seat: int
    name: str
    card: dict | None  # card_face, or None for a face-down card the viewer may not know
    face_down: bool
    mine: bool = False


@dataclass(frozen=True)
class Board:
    """The board of one step: the hand, score, stake and vira, the finished rounds, the trick, the viewer's cards."""

    hand_number: int
    score: list[int]
    stake: int
    vira: dict | None
    trick: list[Play] = field(default_factory=list)
    rounds: list[list[Play]] = field(default_factory=list)
    hand: list[dict | None] = field(default_factory=list)


def event_sentence(event: dict, names: dict[int, str], side_names: dict[int, str]) -> str | None:
    """The sentence that tells `event` (`names`: each seat's, `side_names`: each side's, "Ana & Zé Bot").

    None for an event the replay does not tell (a seat left, a robot took it over, a kind it does not know).
    """
    who = names.get(event.get("seat", -1), "")
    match event.get("type"):
        case "match_started":
            return _("Hand 1 is dealt. %(name)s deals.") % {"name": names.get(event.get("dealer", -1), "")}
        case "hand_dealt":
            return _("Hand %(n)s is dealt. %(name)s deals.") % {
                "n": event.get("hand_number"),
                "name": names.get(event.get("dealer", -1), ""),
            }
        case "card_played" if event.get("double"):
            return _("%(name)s plays %(card)s, with a card face down beneath it.") % {
                "name": who,
                "card": card_label(event.get("card")),
            }
        case "card_played" if event.get("face_down"):
            return _("%(name)s plays a card face down.") % {"name": who}
        case "card_played":
            return _("%(name)s plays %(card)s.") % {"name": who, "card": card_label(event.get("card"))}
        case "card_lost_value":
            return _("%(name)s's %(card)s counts for nothing: %(hidden)s lay beneath it.") % {
                "name": who,
                "card": card_label(event.get("card")),
                "hidden": card_label(event.get("hidden")),
            }
        case "hidden_revealed":
            return _("The hidden cards are shown: they are round 3.")
        case "round_won":
            return _("%(name)s wins round %(n)s.") % {"name": who, "n": event.get("round")}
        case "round_tied":
            return _("Round %(n)s is tied.") % {"n": event.get("round")}
        case "raise_asked":
            return _("%(name)s calls %(call)s") % {
                "name": who,
                "call": RAISE_CALLS.get(event.get("name", ""), "Truco!"),
            }
        case "raise_accepted":
            return _("%(name)s accepts: the hand is worth %(n)s.") % {"name": who, "n": event.get("value")}
        case "raise_run":
            return _("%(name)s runs.") % {"name": who}
        case "eleven_accepted":
            return _("%(name)s plays the hand.") % {"name": who}
        case "eleven_refused":
            return _("%(name)s refuses the hand.") % {"name": who}
        case "clock_ran_out":
            return _("Time ran out for %(name)s: the table played for them.") % {"name": who}
        case "hand_won":
            reason = HAND_REASONS.get(event.get("reason", ""), "")
            return _("Hand %(n)s goes to %(side)s (+%(points)s)%(reason)s.") % {
                "side": side_names.get(event.get("side", -1), ""),
                "n": event.get("hand_number"),
                "points": event.get("points"),
                "reason": f": {reason}" if reason else "",
            }
        case "hand_void":
            return _("Nobody scores hand %(n)s.") % {"n": event.get("hand_number")}
        case "match_won":
            return _("The match goes to %(side)s.") % {"side": side_names.get(event.get("side", -1), "")}
    return None
