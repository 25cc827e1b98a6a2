"""LEGACY: the replay of a match the engine cannot play again, rebuilt from its stored events.

Only for matches stored without the engine state they started from (`Match.start_state`: those that
started before issue 29) or whose stored actions no longer replay to their stored events (the
engine's rules changed since). Every other match replays through the engine (games.table.replay).

This is the replay as it was before issue 29, kept frozen: it follows the board through the events
(a second reading of the rules, which is why nothing new may use it), with the viewer's own dealt
cards (`DealtCards` of the viewer's seat, nobody else's). The events are public by construction (the
engine puts no unplayed card and no face-down card's identity in an event), so no step can show
another seat's hidden card. Do not extend it: a new kind of event gets its sentence in
games.table.replay_page and nothing here.
"""

from __future__ import annotations

from games.models import DealtCards, Match, MatchEvent
from games.table.presentation import card_face
from games.table.replay_page import Board, Play, event_sentence


def legacy_boards(
    match: Match, names: dict[int, str], side_names: dict[int, str], viewer_seat: int | None
) -> list[tuple[str, Board]]:
    """Each told event of the match with the board the viewer saw right after it, from the events alone."""
    events = list(MatchEvent.objects.filter(match=match).order_by("id").values_list("data", flat=True))
    dealt = DealtCards.objects.filter(match=match, seat=viewer_seat if viewer_seat is not None else -1)
    mine = {d.hand_number: d for d in dealt.order_by("hand_number")}
    steps: list[tuple[str, Board]] = []
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

    for event in events:
        kind = event.get("type")
        seat = event.get("seat")
        who = names.get(seat, "")
        if kind == "match_started":
            score = list(event.get("score") or score)
            vira = event.get("vira")
            stake = 1
            deal(1)
        elif kind == "hand_dealt":
            hand_number = event.get("hand_number", hand_number + 1)
            vira, stake = event.get("vira"), event.get("stake", 1)
            deal(hand_number)
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
        elif kind == "hidden_revealed":
            trick = [
                Play(p["seat"], names.get(p["seat"], ""), card_face(p["card"]), False, p["seat"] == viewer_seat)
                for p in event.get("plays", [])
            ]
        elif kind in ("round_won", "round_tied"):
            rounds.append(trick)
            trick = []
        elif kind == "raise_asked":
            stake = event.get("stake", stake)
        elif kind == "raise_accepted":
            stake = event.get("value", stake)
        elif kind in ("hand_won", "match_won"):
            score = list(event.get("score") or score)
        text = event_sentence(event, names, side_names)
        if text is not None:
            steps.append(
                (
                    text,
                    Board(
                        hand_number=hand_number,
                        score=list(score),
                        stake=stake,
                        vira=card_face(vira),
                        trick=list(trick),
                        rounds=[list(r) for r in rounds],
                        hand=[card_face(c) for c in hand],
                    ),
                )
            )
    return steps
