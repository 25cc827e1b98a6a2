"""Driving matches from sync test code through the real services: moves, the clock, and publishing.

The site itself publishes from the event loop (the socket and the sweeper, `games.table.publishing`);
these helpers do the same from a test's thread, so sockets a test opened see each move.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from django.test import Client
from django.utils import timezone

from games import engine
from games.match.moves import apply_action, play_due_seat_safely
from games.match.starting import SeatPlan, create_match, seat_plans_against_ai
from games.models import Match
from games.selectors import due_match_ids, seats_at
from games.table import rendering
from games.table.publishing import publish_move
from shop.selectors import equipped_deck

# The Play page's form for a single 2-seat Paulista match against the easy AI.
PLAY_FORM = {
    "mode": "single",
    "variant": "paulista",
    "deck": "dirty",
    "seats": "2",
    "partnership": "yes",
    "bot_level": "easy",
    "face_down": "",
    "all_tied": "dealer",
    "move_seconds": "99",
}


def state_of(match: Match) -> engine.MatchState:
    match.refresh_from_db()
    return engine.from_json(match.state)


def human_turn_action(match: Match, seat: int = 0) -> dict | None:
    """The first legal action of the human seat, if it is its turn."""
    legal = engine.legal_actions(state_of(match), seat)
    return legal[0].to_dict() if legal else None


def act(public_id: str, seat_number: int, payload: dict, version) -> Match:
    """Apply one seat's action (`games.match.moves.apply_action`), then publish it as the socket does."""
    match = apply_action(public_id, seat_number, payload, version)
    async_to_sync(publish_move)(match)
    return match


def sweep(now=None) -> int:
    """One pass of the sweeper: play every due seat once and publish; returns how many moves were made."""
    moved = 0
    for pk in due_match_ids(now):
        match = play_due_seat_safely(pk, now)
        if match is not None:
            async_to_sync(publish_move)(match)
            moved += 1
    return moved


def pushed_fragments(match: Match, seat_number: int, *, oob: bool = True) -> dict[str, str]:
    """What the seat's socket pushes for the match as stored now: every region's fragment."""
    seats = seats_at(match)
    view = rendering.viewer_view(match, seat_number)
    contexts = rendering.table_contexts(
        match, rendering.table_facts(match, seats, equipped_deck(seats[seat_number].user)), view
    )
    return rendering.render_regions(contexts, oob=oob)


def play_until_human_turn(match: Match, limit: int = 50) -> None:
    """Run the clock until seat 0 (the human) may act; AI seats act when their deadline passes."""
    for _ in range(limit):
        state = state_of(match)
        if engine.is_over(state) or 0 in engine.seats_to_act(state):
            return
        assert sweep(now=timezone.now() + timedelta(seconds=2)) >= 1


def play_to_the_end(match: Match, limit: int = 2000) -> None:
    """The human (seat 0) takes its first legal action every turn, the AI seats play on the clock."""
    for _ in range(limit):
        play_until_human_turn(match)
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        act(match.public_id, 0, human_turn_action(match), match.version)  # type: ignore[arg-type]  # its turn
    raise AssertionError("match did not end")


def win_match_for(match: Match, side: int, limit: int = 200) -> None:
    """Play the match to its end through the move service so that `side` wins, whatever the cards.

    Every seat's action goes through `apply_action` (the AI seats' too): the winning side raises
    whenever it may; the others raise back once and then run, so each hand gives the winning side
    six points (Paulista: running from nine; Mineiro: from ten) and two hands end the match.
    """
    for _ in range(limit):
        state = state_of(match)
        if engine.is_over(state):
            return
        seat, action = _winning_choice(state, side)
        apply_action(match.public_id, seat, action, match.version)
    raise AssertionError("match did not end")


def finished_match(user, seed=5, seats=2) -> Match:
    """A Paulista match against the easy AI that seat 0 (`user`) has won."""
    rules = engine.RuleSet(variant="paulista", seats=seats)
    plans = seat_plans_against_ai(rules, "easy", user=user)
    match = create_match(rules=rules, seats=plans, bot_level="easy", seed=seed)
    win_match_for(match, 0)
    match.refresh_from_db()
    return match


def last_move_to_win(match: Match, side: int, limit: int = 200) -> tuple[int, dict]:
    """Play the match as `win_match_for` does, up to its last move: returns (seat, action) of the move
    that ends it, unplayed, for a test to make at the moment it chooses (the match settles then)."""
    for _ in range(limit):
        state = state_of(match)
        seat, action = _winning_choice(state, side)
        after, _events = engine.apply(state, seat, engine.Action.from_dict(action))
        if engine.is_over(after):
            return seat, action
        apply_action(match.public_id, seat, action, match.version)
    raise AssertionError("match did not end")


def _winning_choice(state: engine.MatchState, side: int) -> tuple[int, dict]:
    seat = engine.seats_to_act(state)[0]
    view = engine.seat_view(state, seat)
    by_kind: dict[str, Any] = {}
    for action in view["legal_actions"]:
        by_kind.setdefault(action["do"], action)
    pending = view["pending_raise"]
    if view["side"] == side:
        action = by_kind.get("raise") or by_kind.get("accept") or by_kind["play"]
    elif pending is not None:
        raise_back = "raise" in by_kind and pending["value"] < 9
        action = by_kind["raise"] if raise_back else by_kind.get("run") or by_kind["accept"]
    else:
        action = by_kind.get("play") or by_kind.get("accept")  # type: ignore[assignment]  # one is legal
    return seat, action


def make_table(make_user, seats: int, *, variant="paulista", partnership=None, score=None, seed=1, **options):
    """A match between people only (one account per seat, no AI): every move is the test's choice."""
    users = [make_user(f"P{n}_{seed}") for n in range(seats)]
    rules = engine.RuleSet.from_dict({"variant": variant, "seats": seats, "partnership": partnership, **options})
    match = create_match(
        rules=rules,
        seats=[SeatPlan(user=u, display_name=u.username) for u in users],
        bot_level="medium",
        seed=seed,
        score=score,
    )
    return match, users


def login_cookie(user) -> tuple[Client, str]:
    """A signed-in client for `user` and the session cookie its socket sends."""
    client = Client()
    client.force_login(user)
    return client, f"sessionid={client.cookies['sessionid'].value}"


def tied_first_round(match: Match) -> Match:
    """Online Mineiro from a fixed deal: K against K ties round 1, so seat 1 leads the double round (seat 0
    holds KC 3C 4D, seat 1 KH 2H 5S). Saved at the version after both plays; no turn is scheduled."""
    rules = engine.RuleSet.from_dict(match.rules)
    deal = {"hands": [["KC", "3C", "4D"], ["KH", "2H", "5S"]]}
    state = engine.new_match(rules, 3, dealer=0, deals=[deal])
    state, _ = engine.apply(state, 1, engine.Action("play", "KH"))
    state, _ = engine.apply(state, 0, engine.Action("play", "KC"))
    match.state = engine.to_json(state)
    match.version += 2
    match.save()
    return match
