"""The live table's business logic: start a match, apply a seat's action, run the clock and AI seats.

Every change happens in one transaction with the match row locked: load the engine state, apply,
store state + version + events, set the next deadline, credit rewards if the match ended, and
only after commit tell the match's group that a new version is out (DESIGN.md, "One action").
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine.bots import choose_action

from .models import Match, MatchEvent, Seat

log = logging.getLogger(__name__)

# AI seats wait a human-like moment before acting (issue: about 0.5–1.5 s); tests may shorten it.
AI_DELAY_RANGE_S = (0.5, 1.5)
# When the human's clock runs out, the system plays for them with this bot's judgement.
AUTOPLAY_LEVEL = "easy"
SWEEP_BATCH = 20


class TableError(Exception):
    """An action the table refuses; `code` is stable for tests and the browser, `message` is for people."""

    def __init__(self, code: str, message):
        super().__init__(str(message))
        self.code = code
        self.message = message


@dataclass(frozen=True)
class SeatPlan:
    """Who sits where when a match starts."""

    user: object | None = None
    guest_token: str = ""
    bot_level: str = ""
    display_name: str = ""


def ai_delay(match_pk: int, version: int) -> timedelta:
    rng = random.Random(f"{match_pk}:{version}:delay")
    return timedelta(seconds=rng.uniform(*getattr(settings, "GAMES_AI_DELAY_S", AI_DELAY_RANGE_S)))


def create_match(
    *,
    rules: engine.RuleSet,
    seats: list[SeatPlan],
    bot_level: str,
    move_seconds: int = 99,
    kind: str = Match.Kind.SINGLE,
    tournament=None,
    tournament_stage=None,
    seed: int | None = None,
    score: list[int] | None = None,
) -> Match:
    """Create the match and its seats, deal the first hand and schedule whoever acts first."""
    if len(seats) != rules.seats:
        raise ValueError("one seat plan per seat")
    seed = secrets.randbits(63) if seed is None else seed
    state = engine.new_match(rules, seed, score=score)
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind,
            tournament=tournament,
            tournament_stage=tournament_stage,
            rules=rules.to_dict(),
            bot_level=bot_level,
            move_seconds=move_seconds,
            state=engine.to_json(state),
            version=1,
            score=list(state.score),
            seat_bots=[plan.bot_level for plan in seats],
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                number=n,
                user=plan.user,
                guest_token=plan.guest_token,
                bot_level=plan.bot_level,
                display_name=plan.display_name,
            )
            for n, plan in enumerate(seats)
        )
        _schedule(match, state, timezone.now())
        match.save(update_fields=["deadline", "deadline_seat", "turn_started_at"])
        view = engine.spectator_view(state)
        MatchEvent.objects.create(
            match=match,
            version=1,
            actor="system",
            data={
                "type": "match_started",
                "dealer": view["dealer"],
                "vira": view["vira"],
                "hand_kind": view["hand_kind"],
                "score": view["score"],
            },
        )
    return match


def _schedule(match: Match, state, now) -> None:
    """Set who the sweeper waits for next: a human's clock, or an AI seat's short delay."""
    if engine.is_over(state):
        match.deadline = match.deadline_seat = match.turn_started_at = None
        return
    acting = engine.seats_to_act(state)
    humans = [s for s in acting if not match.seat_bots[s]]
    # A bot partner leaves answers and the hand-of-eleven decision to its human partner.
    if humans:
        match.deadline_seat = humans[0]
        match.deadline = now + timedelta(seconds=match.move_seconds)
    else:
        match.deadline_seat = acting[0]
        match.deadline = now + ai_delay(match.pk, match.version)
    match.turn_started_at = now


STORED_FIELDS = [
    "state",
    "version",
    "score",
    "status",
    "winner_side",
    "finished_at",
    "deadline",
    "deadline_seat",
    "turn_started_at",
    "timed_out_seat",
    "timed_out_version",
    "updated_at",
]


def _store(match: Match, new_state, events: list[dict], *, seat: int, actor: str) -> None:
    now = timezone.now()
    match.state = engine.to_json(new_state)
    match.version += 1
    match.score = list(new_state.score)
    if engine.is_over(new_state):
        match.status = Match.Status.FINISHED
        match.winner_side = engine.match_winner(new_state)
        match.finished_at = now
    _schedule(match, new_state, now)
    match.save(update_fields=STORED_FIELDS)
    MatchEvent.objects.bulk_create(
        MatchEvent(match=match, version=match.version, seat=seat, actor=actor, data=event) for event in events
    )
    if match.status == Match.Status.FINISHED:
        from .rewards import settle_finished_match

        settle_finished_match(match, list(match.seats.all()))


def act(public_id: str, seat_number: int, payload: dict, version) -> Match:
    """`apply_action`, then tell the match's group (for sync callers; the consumer publishes itself)."""
    match = apply_action(public_id, seat_number, payload, version)
    publish(match.pk, match.version)
    return match


def apply_action(public_id: str, seat_number: int, payload: dict, version) -> Match:
    """Apply one seat's action if it is made on the current version; TableError otherwise (nothing changes).

    Returns after the commit; publishing the new version is the caller's job, so the caller can
    do it from the event loop instead of holding the database thread while the layer answers.
    """
    try:
        action = engine.Action.from_dict(payload)
    except ValueError as exc:
        raise TableError("malformed", exc) from None
    if type(version) is not int:
        raise TableError("malformed", _("Every action must say which version of the table it was made on."))
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(public_id=public_id).first()
        if match is None:
            raise TableError("not_found", _("This match does not exist."))
        if match.status != Match.Status.ACTIVE:
            raise TableError("match_over", _("This match is over."))
        if version != match.version:
            raise TableError("stale", _("The table changed before your move arrived; it has been refreshed."))
        state = engine.from_json(match.state)
        try:
            new_state, events = engine.apply(state, seat_number, action)
        except engine.IllegalAction as exc:
            raise TableError("illegal", exc) from None
        _store(match, new_state, events, seat=seat_number, actor="player")
    return match


def play_due_seat(match_pk: int, now=None) -> int | None:
    """Act for the seat whose deadline passed (AI seat, bot partner, or a timed-out human).

    Returns the new version (to publish once committed), or None if nothing was due.
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(pk=match_pk, status=Match.Status.ACTIVE, deadline__lte=now)
            .first()
        )
        if match is None:
            return None
        bots = match.seat_bots
        state = engine.from_json(match.state)
        acting = engine.seats_to_act(state)
        if not acting:
            return None
        due = match.deadline_seat if match.deadline_seat in acting else acting[0]
        bot_partners = [s for s in acting if bots[s]]
        if bots[due]:
            seat, level, actor = due, bots[due], "bot"
        elif bot_partners:
            # The human partner let the clock run out: the bot partner answers for the side.
            seat, level, actor = bot_partners[0], bots[bot_partners[0]], "bot"
        else:
            seat, level, actor = due, AUTOPLAY_LEVEL, "clock"
        rng = random.Random(f"{match.pk}:{match.version}:{seat}")
        action = choose_action(level, engine.seat_view(state, seat), rng)
        new_state, events = engine.apply(state, seat, action)
        if actor == "clock":
            events = [{"type": "clock_ran_out", "seat": seat}, *events]
            match.timed_out_seat, match.timed_out_version = seat, match.version + 1
        _store(match, new_state, events, seat=seat, actor=actor)
    return match.version


def due_match_ids(now=None, limit: int = SWEEP_BATCH) -> list[int]:
    now = now or timezone.now()
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", flat=True)[:limit]
    )


def sweep(now=None) -> int:
    """Play every due seat once; returns how many actions were taken. Safe in many processes at once."""
    acted = 0
    for pk in due_match_ids(now):
        version = play_due_seat_safely(pk, now)
        if version is not None:
            publish(pk, version)
            acted += 1
    return acted


def play_due_seat_safely(match_pk: int, now=None) -> int | None:
    try:
        return play_due_seat(match_pk, now)
    except Exception:  # one broken match must not stop the others' clocks
        log.exception("sweeper failed on match %s", match_pk)
        return None


def update_message(version: int) -> dict:
    return {"type": "match.update", "version": version}


def group_name(match_pk: int) -> str:
    return f"match.{match_pk}"


def publish(match_pk: int, version: int) -> None:
    """Tell everyone at the table that a version is out (sync callers: tests, commands, sweep())."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(match_pk), update_message(version))
