"""Renders the table for one viewer: the full page and the out-of-band fragments pushed over the socket.

The page and the pushes use the same partials (`games/_<region>.html`), so a page rendered at
version v plus the fragments of v+1 equals the page rendered at v+1 (tests/games/test_pushed_fragments.py).
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from games import engine
from shop.selectors import equipped_deck

from . import presentation as p
from . import selectors
from .models import Match, Seat
from .rewards import rewards_for
from .tournaments import STAGES

REGIONS = ("scoreboard", "seats", "trick", "hand", "actions", "status", "announce")


def viewer_view(match: Match, seat_number: int | None) -> dict:
    state = engine.from_json(match.state)
    return engine.seat_view(state, seat_number) if seat_number is not None else engine.spectator_view(state)


def table_context(
    match: Match, seats: list[Seat], seat_number: int | None, *, view: dict | None = None, deck: dict | None = None
) -> dict:
    view = view if view is not None else viewer_view(match, seat_number)
    me = seat_number if seat_number is not None else 0
    n = view["seats"]
    acting = set(view["seats_to_act"])
    my_side = view["side"]
    legal = view["legal_actions"]
    legal_kinds = {a["do"] for a in legal}
    variant = view["rules"]["variant"]
    deck = deck or equipped_deck(seats[me].user if seat_number is not None else None)
    teams = any(len(side) > 1 for side in view["sides"])
    side_of = {s: side for side, members in enumerate(view["sides"]) for s in members}

    players = []
    for seat in seats:
        side = side_of[seat.number]
        user = seat.user
        players.append(
            {
                "number": seat.number,
                "name": seat.display_name if (seat.user_id or seat.is_bot or seat.guest_token) else _("Deleted player"),
                "avatar_url": user.profile.avatar_url if user is not None and hasattr(user, "profile") else None,
                "is_bot": seat.is_bot,
                "is_me": seat.number == seat_number,
                "is_partner": seat_number is not None and side == my_side and seat.number != seat_number,
                "side": side,
                "position": p.position_of(me, seat.number, n),
                "cards_left": range(view["cards_left"][seat.number]),
                "acting": seat.number in acting,
                "is_dealer": seat.number == view["dealer"],
            }
        )
    names = {pl["number"]: pl["name"] for pl in players}

    def side_label(side: int) -> str:
        if teams:
            if side == my_side:
                return _("Us")
            return _("Them") if len(view["sides"]) == 2 else " & ".join(names[s] for s in view["sides"][side])
        return _("You") if side == my_side else names[view["sides"][side][0]]

    def result_word(side):
        if side is None:
            return "tied"
        return "won" if side == my_side else "lost"

    score = [
        {"side": s, "label": side_label(s), "points": pts, "mine": s == my_side} for s, pts in enumerate(view["score"])
    ]

    def plays_of(plays: list[dict]) -> list[dict]:
        return [
            {
                "seat": play["seat"],
                "position": p.position_of(me, play["seat"], n),
                "face": p.card_face(play["card"]),
                "face_down": play["face_down"],
                "name": names[play["seat"]],
                "mine": play["seat"] == seat_number,
            }
            for play in plays
        ]

    # Between rounds the last finished round of this hand stays on the felt (dimmed) until the next card
    # is played. A new hand starts on a clear felt: the last hand is a summary line, never cards beside
    # the new vira.
    plays, previous = view["trick"], False
    if not plays and view["rounds"]:
        plays, previous = view["rounds"][-1]["plays"], True
    table = plays_of(plays)
    rounds = [
        {
            "number": r["number"],
            "result": result_word(r["winner_side"]),
            "winner": side_label(r["winner_side"]) if r["winner_side"] is not None else None,
            "plays": plays_of(r["plays"]),
        }
        for r in view["rounds"]
    ]
    playable = {a["card"] for a in legal if a["do"] == "play"}
    can_face_down = any(a["do"] == "play" and a["face_down"] for a in legal)
    hand = [{"face": p.card_face(code), "playable": code in playable} for code in view["hand"]]
    partner_hands = [
        {"name": names[int(s)], "cards": [p.card_face(c) for c in cards]} for s, cards in view["partner_hands"].items()
    ]
    eleven = view["hand_of_eleven"]
    deciding_eleven = bool(eleven and not eleven["decided"] and {"accept", "run"} & legal_kinds)
    pending = view["pending_raise"]
    next_raise = view["next_raise"]

    last_hand = _last_hand_summary(view, side_label, variant)
    if last_hand:
        # The cards of the round that ended the last hand, small, in the summary line.
        ended = view["last_hand"].get("unfinished_round") or (view["last_hand"].get("rounds") or [{}])[-1].get("plays")
        last_hand["cards"] = plays_of(ended or [])
    # What a screen reader announces (games/_announce.html): the latest card of someone else, the round
    # or hand that just ended.
    latest = view["trick"][-1] if view["trick"] else (view["rounds"][-1]["plays"][-1] if view["rounds"] else None)

    result = _result(match, seats, view, seat_number, side_label) if view["match_over"] else None

    # Say so when the table played for someone whose clock ran out, until everyone has moved since.
    timed_out = None
    if match.timed_out_version is not None and match.version - match.timed_out_version < n:
        timed_out = names[match.timed_out_seat]

    # The countdown is for people; an AI seat's short delay is not a clock worth showing.
    clock_seat = match.deadline_seat
    deadline_ms = (
        int(match.deadline.timestamp() * 1000)
        if match.deadline and view["seats_to_act"] and clock_seat is not None and seats[clock_seat].is_human
        else None
    )
    clock_for = names.get(match.deadline_seat) if match.deadline_seat is not None else None
    return {
        "match": match,
        "version": match.version,
        "view": view,
        "viewer_seat": seat_number,
        "players": players,
        "others": [pl for pl in players if not pl["is_me"]],
        "me": players[me] if seat_number is not None else None,
        "score": score,
        "target": view["target"],
        "stake": view["stake"],
        "hand_number": view["hand_number"],
        "vira": p.card_face(view["vira"]),
        "manilha_rank": view["manilha_rank"],
        "manilhas": [p.card_face(c) for c in view["manilhas"]],
        "variant": variant,
        "table": table,
        "table_is_previous": previous and bool(table),
        "rounds": rounds,
        "round_in_play": view["round"],
        "latest_play": plays_of([latest])[0] if latest and latest["seat"] != seat_number else None,
        "round_result": rounds[-1] if rounds and not view["trick"] else None,
        "fresh_hand": not view["trick"] and not view["rounds"],
        "hand": hand,
        "can_face_down": can_face_down,
        "partner_hands": partner_hands,
        "can_raise": "raise" in legal_kinds and not deciding_eleven,
        "raise_call": p.RAISE_CALLS.get(next_raise["name"]) if next_raise else None,
        "raise_value": next_raise["value"] if next_raise else None,
        "can_accept": "accept" in legal_kinds and not deciding_eleven,
        "can_run": "run" in legal_kinds and not deciding_eleven,
        "deciding_eleven": deciding_eleven,
        "hand_of_eleven": eleven,
        "iron_hand": view["iron_hand"],
        "pending": pending
        and {
            **pending,
            "call": p.RAISE_CALLS.get(pending["name"]),
            "by": names[pending["seat"]],
            "mine": pending["side"] == my_side,
        },
        "my_turn": seat_number is not None and seat_number in acting,
        "acting_names": [names[s] for s in view["seats_to_act"]],
        "deadline_ms": deadline_ms,
        "clock_for": clock_for,
        "timed_out": timed_out,
        "last_hand": last_hand,
        "result": result,
        "deck": deck,
        "play_again_url": reverse("games:play"),
        "tournament_stage": STAGES[match.tournament_stage] if match.tournament_stage is not None else None,
        "tournament_url": reverse("games:tournament", args=[match.tournament.public_id])
        if match.tournament_id
        else None,
    }


def _last_hand_summary(view: dict, side_label, variant: str) -> dict | None:
    """Who took the hand that just ended, how many points, and why, in words."""
    last = view["last_hand"]
    if not last:
        return None
    if last["reason"] == "ran_from":
        losers = [s for s in range(len(view["score"])) if s != last["winner_side"]]
        why = _("%(side)s ran from %(call)s") % {
            "side": side_label(losers[0]) if len(losers) == 1 else _("the others"),
            "call": p.ran_from_call(variant, last["points"]),
        }
    else:
        why = str(p.HAND_REASONS.get(last["reason"], last["reason"]))
    return {
        "number": last["hand_number"],
        "winner": side_label(last["winner_side"]) if last["winner_side"] is not None else None,
        "mine": last["winner_side"] == view["side"],
        "points": last["points"],
        "why": why,
    }


def _result(match: Match, seats: list[Seat], view: dict, seat_number: int | None, side_label) -> dict:
    """The match result for this viewer, with what it paid them (or the offer to sign up); a tournament
    stage says what comes next and what the final pays."""
    won = view["match_winner"] == view["side"]
    result = {"won": won, "winner": side_label(view["match_winner"]), "signed_in": False, "tournament": None}
    if seat_number is not None and seats[seat_number].user_id:
        coins, points = rewards_for(match, won)
        result.update(coins=coins, rank_points=points, signed_in=True)
    if match.tournament_stage is not None:
        settings = selectors.reward_amounts()
        final = match.tournament_stage == len(STAGES) - 1
        result["tournament"] = {
            "stage": STAGES[match.tournament_stage],
            "next_stage": None if final else STAGES[match.tournament_stage + 1],
            "champion": won and final,
            "prize_coins": settings.tournament_win_coins,
            "prize_rank_points": settings.tournament_win_rank_points,
        }
    return result


def render_region(region: str, context: dict, *, oob: bool = False) -> str:
    return render_to_string(f"games/_{region}.html", {**context, "oob": oob})


def render_regions(context: dict, *, oob: bool = False) -> dict[str, str]:
    return {region: render_region(region, context, oob=oob) for region in REGIONS}


def render_message(text: str, code: str = "") -> str:
    return render_to_string("games/_message.html", {"text": text, "code": code, "oob": True})
