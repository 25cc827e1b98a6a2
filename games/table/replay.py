"""A finished match, step by step, as one seat's player saw it.

Built only from the stored events, which are public by construction (the engine puts no unplayed
card and no face-down card's identity in an event), plus the viewer's own dealt cards
(`DealtCards` of the viewer's seat, nobody else's). So no step can show another seat's hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from django.utils.translation import gettext as _

from games import engine
from games.models import DealtCards, Match, MatchEvent, Seat
from games.table.presentation import HAND_REASONS, RAISE_CALLS, card_face


@dataclass
class Play:
    seat: int
    name: str
    card: dict | None  # card_face, or None for a face-down card the viewer may not know
    face_down: bool
    mine: bool = False


@dataclass
class Step:
    number: int
    hand_number: int
    text: str
    score: list[int]
    stake: int
    vira: dict | None
    trick: list[Play] = field(default_factory=list)
    rounds: list[list[Play]] = field(default_factory=list)
    hand: list[dict | None] = field(default_factory=list)


def replay_steps(match: Match, seats: list[Seat], viewer_seat: int) -> list[Step]:
    names = {seat.number: seat.display_name or _("Deleted player") for seat in seats}
    events = list(MatchEvent.objects.filter(match=match).order_by("id").values_list("data", flat=True))
    mine = {d.hand_number: d for d in DealtCards.objects.filter(match=match, seat=viewer_seat).order_by("hand_number")}
    steps: list[Step] = []
    hand_number, stake, vira, score = 1, 1, None, [0, 0]
    trick: list[Play] = []
    rounds: list[list[Play]] = []
    hand: list[str] = []
    face_down_left: list[str] = []

    def deal(number: int) -> None:
        nonlocal hand, face_down_left, trick, rounds
        dealt = mine.get(number)
        hand = list(dealt.cards) if dealt else []
        face_down_left = list(dealt.face_down) if dealt else []
        trick, rounds = [], []

    def snapshot(text: str) -> None:
        steps.append(
            Step(
                number=len(steps) + 1,
                hand_number=hand_number,
                text=text,
                score=list(score),
                stake=stake,
                vira=card_face(vira),
                trick=list(trick),
                rounds=[list(r) for r in rounds],
                hand=[card_face(c) for c in hand],
            )
        )

    for event in events:
        kind = event.get("type")
        seat = event.get("seat")
        who = names.get(seat, "")
        if kind == "match_started":
            score = list(event.get("score") or score)
            vira = event.get("vira")
            stake = 1
            deal(1)
            snapshot(_("Hand 1 is dealt. %(name)s deals.") % {"name": names.get(event.get("dealer"), "")})
        elif kind == "hand_dealt":
            hand_number = event.get("hand_number", hand_number + 1)
            vira, stake = event.get("vira"), event.get("stake", 1)
            deal(hand_number)
            snapshot(
                _("Hand %(n)s is dealt. %(name)s deals.")
                % {"n": hand_number, "name": names.get(event.get("dealer"), "")}
            )
        elif kind == "card_played":
            down = bool(event.get("face_down"))
            card = event.get("card")
            beneath = None  # online Mineiro's double play: a second card face down under this one
            if seat == viewer_seat:
                if down and face_down_left:
                    card = face_down_left.pop(0)  # the viewer knows their own face-down card
                if card in hand:
                    hand.remove(card)
                if event.get("double") and face_down_left:
                    beneath = face_down_left.pop(0)
                    if beneath in hand:
                        hand.remove(beneath)
            trick.append(Play(seat, who, card_face(card), down, seat == viewer_seat))
            if event.get("double"):
                # Everyone sees that a card lies beneath; only its owner knows which.
                trick.append(Play(seat, who, card_face(beneath), True, seat == viewer_seat))
                snapshot(
                    _("%(name)s plays %(card)s, with a card face down beneath it.")
                    % {"name": who, "card": _label(card)}
                )
            elif down:
                snapshot(_("%(name)s plays a card face down.") % {"name": who})
            else:
                snapshot(_("%(name)s plays %(card)s.") % {"name": who, "card": _label(card)})
        elif kind == "card_lost_value":
            snapshot(
                _("%(name)s's %(card)s counts for nothing: %(hidden)s lay beneath it.")
                % {
                    "name": who,
                    "card": _label(event.get("card")),
                    "hidden": _label(event.get("hidden")),
                }
            )
        elif kind == "hidden_revealed":
            trick = [
                Play(p["seat"], names.get(p["seat"], ""), card_face(p["card"]), False, p["seat"] == viewer_seat)
                for p in event.get("plays", [])
            ]
            snapshot(_("The hidden cards are shown: they are round 3."))
        elif kind in ("round_won", "round_tied"):
            rounds.append(trick)
            trick = []
            if kind == "round_won":
                snapshot(_("%(name)s wins round %(n)s.") % {"name": who, "n": event.get("round")})
            else:
                snapshot(_("Round %(n)s is tied.") % {"n": event.get("round")})
        elif kind == "raise_asked":
            stake = event.get("stake", stake)
            call = RAISE_CALLS.get(event.get("name"), "Truco!")
            snapshot(_("%(name)s calls %(call)s") % {"name": who, "call": call})
        elif kind == "raise_accepted":
            stake = event.get("value", stake)
            snapshot(_("%(name)s accepts: the hand is worth %(n)s.") % {"name": who, "n": stake})
        elif kind == "raise_run":
            snapshot(_("%(name)s runs.") % {"name": who})
        elif kind == "eleven_accepted":
            snapshot(_("%(name)s plays the hand.") % {"name": who})
        elif kind == "eleven_refused":
            snapshot(_("%(name)s refuses the hand.") % {"name": who})
        elif kind == "clock_ran_out":
            snapshot(_("Time ran out for %(name)s: the table played for them.") % {"name": who})
        elif kind == "hand_won":
            score = list(event.get("score") or score)
            reason = HAND_REASONS.get(event.get("reason"), "")
            snapshot(
                _("Hand %(n)s goes to %(side)s (+%(points)s)%(reason)s.")
                % {
                    "side": _side_names(seats, match, event.get("side")),
                    "n": event.get("hand_number"),
                    "points": event.get("points"),
                    "reason": f": {reason}" if reason else "",
                }
            )
        elif kind == "hand_void":
            snapshot(_("Nobody scores hand %(n)s.") % {"n": event.get("hand_number")})
        elif kind == "match_won":
            score = list(event.get("score") or score)
            snapshot(_("The match goes to %(side)s.") % {"side": _side_names(seats, match, event.get("side"))})
    return steps


def _side_names(seats: list[Seat], match: Match, side) -> str:
    """The names of a side's players ("Ana & Zé Bot")."""
    rules = engine.RuleSet.from_dict(match.rules)
    return " & ".join(s.display_name or _("Deleted player") for s in seats if engine.side_of(rules, s.number) == side)


def _label(code: str | None) -> str:
    """A face-up card's accessible label (the code of a card that is shown: never None here)."""
    return cast(dict, card_face(code))["label"]
