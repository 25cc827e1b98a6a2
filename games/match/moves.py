"""Applying a move: a seat's action, or the one the clock makes for a seat whose deadline passed.

Every move happens in one transaction with the match row locked: load the engine state, apply,
store state + version + events, set the next deadline, settle the rewards if the match ended.
Publishing the new version is the caller's job, after the commit (docs/architecture.md).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine.bots import choose_action, decide
from games.match import pace, presence
from games.match.bot_signs import machines_sign, with_partner_sign
from games.match.clock import schedule_next_turn
from games.match.locked import locked_match, save_match
from games.match.rewards import settle_finished_match
from games.match.stakes import settle_stakes
from games.match.starting import record_deal
from games.match.tournaments import advance_after
from games.models import DealtCards, Match, MatchEvent, Seat
from shop import wallet

log = logging.getLogger(__name__)

# When the human's clock runs out, the system plays for them with this bot's judgement.
AUTOPLAY_LEVEL = "easy"

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
    "missed_turns",
    "away_since",
    "robot_seats",
    "left_seats",
    "own_moves",
    "updated_at",
]
# A move that dealt a hand at a table with partner signals, where a machine signed it.
SIGNED_FIELDS = [*STORED_FIELDS, "signals"]

# Who made a person's move: the person ("player"), or the table for them ("robot" while they were
# away or after they left, "clock" when their time ran out). `Match.own_moves` counts them.
PERSON_ACTORS = ("player", "robot", "clock")


class ActionRefused(Exception):
    """An action that is not applied; `code` is stable for tests and the browser, `message` is for people."""

    def __init__(self, code: str, message, version: int | None = None):
        super().__init__(str(message))
        self.code = code
        self.version = version  # "stale": the table's version now
        self.message = message


@wallet.retry_once_on_deadlock
def apply_action(public_id: str, seat_number: int, payload: dict, version) -> Match:
    """Apply one seat's action if it is made on the current version; ActionRefused otherwise (nothing changes).

    Returns after the commit; publishing the new version is the caller's job, so the caller can
    do it from the event loop instead of holding the database thread while the layer answers.
    """
    try:
        action = engine.Action.from_dict(payload)
    except ValueError as exc:
        raise ActionRefused("malformed", exc) from None
    if type(version) is not int:
        raise ActionRefused("malformed", _("Every action must say which version of the table it was made on."))
    with transaction.atomic():
        match = locked_match(public_id)
        if match is None:
            raise ActionRefused("not_found", _("This match does not exist."))
        if match.status != Match.Status.ACTIVE:
            raise ActionRefused("match_over", _("This match is over."))
        # A room's seat a robot plays: its person left, or is away (their socket gives it back).
        if seat_number in match.left_seats:
            raise ActionRefused("left", _("You left this match: a robot is playing your seat to the end."))
        if seat_number in match.robot_seats:
            raise ActionRefused(
                "robot_playing", _("A robot is playing your seat while you were away: it is yours again in a moment.")
            )
        if version != match.version:
            raise ActionRefused(
                "stale", _("The table changed before your move arrived; it has been refreshed."), match.version
            )
        state = engine.from_json(match.state)
        try:
            new_state, events = engine.apply(state, seat_number, action)
        except engine.IllegalAction as exc:
            raise ActionRefused("illegal", exc) from None
        match.missed_turns = 0
        _store(match, new_state, events, seat=seat_number, actor="player", action=action, before=state)
    return match


# A due move whose table moved on while its bot was thinking is decided again this many times at
# most (each time from the new version), then left to the next timer or sweep.
DUE_ATTEMPTS = 3


@dataclass(frozen=True)
class DueDecision:
    """A due move to decide, read without the row lock: everything the bot needs, nothing it may not see.

    `view` is the acting seat's view (for the clock: without raises), `seed` the move's
    randomness; `games.engine.bots.decide(level, view, seed)` turns it into an action anywhere —
    a thread or another process (games.table.thinking) — and `apply_due_decision` stores it if the
    match is still at `version`.
    """

    match_pk: int
    version: int
    seat: int  # the seat that acts
    due: int  # the seat whose deadline passed (a person's, when a bot partner answers for them)
    due_is_machine: bool  # the due seat is a bot's or a robot's (not a person's clock running out)
    actor: str  # "bot", "robot" or "clock"
    level: str
    view: engine.SeatView
    seed: str
    # The engine state the view was read from: at the same version the stored one is the same, so
    # storing needs neither to read nor to parse it again. Stays in this process (never pickled).
    state: engine.MatchState = field(repr=False, compare=False)


class TableMovedOn(Exception):
    """The match is no longer at the version a due move was decided for: decide again."""


def due_decision(match_pk: int, now=None, *, version: int | None = None) -> DueDecision | None:
    """What is due in the match (AI seat, bot partner, or a timed-out human), or None if nothing is.

    A plain read: no lock is held while the bot thinks. With `version` (a timer set for that
    version) only that version's due move is wanted.
    """
    now = now or timezone.now()
    due = Match.objects.filter(pk=match_pk, status=Match.Status.ACTIVE, deadline__lte=now)
    if version is not None:
        due = due.filter(version=version)
    match = due.only(
        "pk", "version", "state", "seat_bots", "robot_seats", "deadline_seat", "partner_signals", "signals"
    ).first()
    if match is None:
        return None
    bots = match.seat_bots
    state = engine.from_json(match.state)
    acting = engine.seats_to_act(state)
    if not acting:
        return None
    due_seat = match.deadline_seat if match.deadline_seat in acting else acting[0]
    # A bot's seat plays at its level; a robot (a room's person away or gone) at GAMES_ROBOT_LEVEL.
    robots = set(match.robot_seats)
    machines = {s: bots[s] or settings.GAMES_ROBOT_LEVEL for s in acting if bots[s] or s in robots}
    if due_seat in machines:
        seat = due_seat
    elif machines:
        # The human partner let the clock run out: the bot (or robot) partner answers for the side.
        seat = next(s for s in acting if s in machines)
    else:
        seat = due_seat
    if seat in machines:
        level, actor = machines[seat], "bot" if bots[seat] else "robot"
    else:
        level, actor = AUTOPLAY_LEVEL, "clock"
    view = engine.seat_view(state, seat)
    if actor == "clock":
        view = clock_view(view)
    else:
        view = with_partner_sign(match, state, seat, view)
    return DueDecision(
        match_pk=match.pk,
        version=match.version,
        seat=seat,
        due=due_seat,
        due_is_machine=due_seat in machines,
        actor=actor,
        level=level,
        view=view,
        seed=f"{match.pk}:{match.version}:{seat}",
        state=state,
    )


@wallet.retry_once_on_deadlock
def apply_due_decision(decision: DueDecision, action: engine.Action, now=None) -> Match | None:
    """Store a decided due move if the match is still at the decision's version.

    Returns the match as stored (to publish once committed); None if the row is locked by
    someone acting on it right now (their commit times the next move) or the match ended;
    raises TableMovedOn if the version moved on (the caller decides again).
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(pk=decision.match_pk, status=Match.Status.ACTIVE)
            .defer("state")
            .first()
        )
        if match is None:
            return None
        if match.version != decision.version:
            raise TableMovedOn(decision.match_pk)
        state = decision.state  # the version is the one read: so is the state
        new_state, events = engine.apply(state, decision.seat, action)
        if not decision.due_is_machine:
            # A person let the clock run out (the table or their bot partner acts for them).
            match.missed_turns += 1
            if match.missed_turns >= settings.GAMES_ABANDON_AFTER_MISSED_TURNS:
                if not presence.tracked(match):
                    abandon_match(match, decision.due, reason="missed_turns", now=now)
                    return match
                # A room's match goes on for the others: the person has left, a robot plays for them
                # from the next turn (docs/decisions.md, "Rooms, part 2").
                presence.mark_left(match, decision.due, now, reason="missed_turns")
                match.missed_turns = 0
        told_first = []
        if decision.actor == "clock":
            told_first = [{"type": "clock_ran_out", "seat": decision.seat}]
            match.timed_out_seat, match.timed_out_version = decision.seat, match.version + 1
        _store(
            match,
            new_state,
            events,
            seat=decision.seat,
            actor=decision.actor,
            action=action,
            before=state,
            told_first=told_first,
        )
    return match


def play_due_seat(match_pk: int, now=None, *, version: int | None = None) -> Match | None:
    """Act for the seat whose deadline passed, all in this thread (tests, scripts; the server uses
    games.table.thinking).

    Returns the match as stored, or None if nothing was due. With `version` (a timer set for that
    version) it acts only if the match is still at that version: a timer in another process, or
    the sweeper, may have made this move already.
    """
    for _attempt in range(DUE_ATTEMPTS):
        decision = due_decision(match_pk, now, version=version)
        if decision is None:
            return None
        try:
            return apply_due_decision(decision, decide(decision.level, decision.view, decision.seed), now)
        except TableMovedOn:
            continue
    return None


def abandon_match(match: Match, seat_number: int, *, reason: str, now=None) -> None:
    """End an active match (row locked by the caller) as abandoned by `seat_number`: its side loses, nobody is paid.

    `reason` is "missed_turns" (the person stopped playing) or "account_deleted". An abandoned match pays
    no coins and no rank points, to anyone, so walking away (or deleting an account) can never earn a
    reward; a tournament stage abandoned is a tournament lost.
    """
    now = now or timezone.now()
    rules = engine.RuleSet.from_dict(match.rules)
    losing_side = engine.side_of(rules, seat_number)
    # The match is decided for the side that was ahead among the others (with two sides: the other one).
    others = [side for side in range(len(match.score)) if side != losing_side]
    match.status = Match.Status.ABANDONED
    match.winner_side = max(others, key=lambda side: (match.score[side], -side))
    match.finished_at = now
    match.deadline = match.deadline_seat = match.turn_started_at = None
    match.version += 1
    match.save(update_fields=STORED_FIELDS)
    MatchEvent.objects.create(
        match=match,
        version=match.version,
        seat=seat_number,
        actor="system",
        data={"type": "match_abandoned", "seat": seat_number, "reason": reason},
    )
    seats = list(Seat.objects.filter(match=match).select_related("user"))
    # The stakes settle as a loss of the abandoner's side: theirs are forfeit to the pot (games.match.stakes).
    settle_stakes(match, seats=seats)
    if match.tournament_id is not None:
        advance_after(match, seats)


def annul_match(match: Match, *, now=None) -> None:
    """End an active match (row locked by the caller) by everyone's agreement (rooms.annulment).

    No winner, no rewards, no statistics (records count FINISHED matches only); the stakes go back
    to their people, except to those who left before the end (games.match.stakes).
    """
    now = now or timezone.now()
    match.status = Match.Status.ANNULLED
    match.winner_side = None
    match.finished_at = now
    match.deadline = match.deadline_seat = match.turn_started_at = None
    match.version += 1
    match.save(update_fields=STORED_FIELDS)
    MatchEvent.objects.create(
        match=match, version=match.version, seat=None, actor="system", data={"type": "match_annulled"}
    )
    settle_stakes(match, seats=list(Seat.objects.filter(match=match).select_related("user")))


@wallet.retry_once_on_deadlock
def abandon_matches_of(user) -> list[tuple[int, int]]:
    """Abandon every active match the user has a seat in (their account is being deleted).

    Returns (match pk, new version) for each, to publish once the transaction committed.
    """
    ended = []
    with transaction.atomic():
        numbers = dict(
            Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE).values_list("match_id", "number")
        )
        # Every match row first (in pk order), then every wallet their stakes pay into (in user-id order):
        # locking a match after wallets would wait in the opposite order to that match's own last move.
        matches = list(
            Match.objects.select_for_update().filter(pk__in=numbers, status=Match.Status.ACTIVE).order_by("pk")
        )
        staked = [match.pk for match in matches if match.stake_coins]
        if staked:
            people = Seat.objects.filter(match__in=staked, user__isnull=False, bot_level="")
            wallet.lock_wallets([*people.values_list("user_id", flat=True), wallet.house_account()])
        for match in matches:
            abandon_match(match, numbers[match.pk], reason="account_deleted")
            ended.append((match.pk, match.version))
    return ended


def clock_view(view: engine.SeatView) -> engine.SeatView:
    """The view the clock decides from for a human who let it run out: the same, without raises.

    Raising bets the absent player's points on a hand they did not choose to bet on; a card, an
    accept or a run is what any table does for a player who is away. The clock plays with the
    easy bot's judgement (AUTOPLAY_LEVEL).
    """
    return {**view, "legal_actions": [a for a in view["legal_actions"] if a["do"] != "raise"]}


def clock_action(view: engine.SeatView, rng: random.Random) -> engine.Action:
    """What the clock plays for a human who let it run out: the easy bot's judgement, never a raise."""
    return choose_action(AUTOPLAY_LEVEL, clock_view(view), rng)


def play_due_seat_safely(match_pk: int, now=None, *, version: int | None = None) -> Match | None:
    """`play_due_seat`, but a failure is logged and skipped: one broken match must not stop the others' clocks."""
    try:
        return play_due_seat(match_pk, now, version=version)
    except Exception:
        log.exception("sweeper failed on match %s", match_pk)
        return None


def _count_own_move(match: Match, seat: int, actor: str) -> None:
    """One more move of a person's seat in `Match.own_moves`, and whether the person made it."""
    counts = match.own_moves.get(str(seat))
    if counts is None or actor not in PERSON_ACTORS:
        return  # a bot's seat (or a match from before the count, which then counts nobody absent)
    match.own_moves = {**match.own_moves, str(seat): [counts[0] + (actor == "player"), counts[1] + 1]}


def _store(
    match: Match,
    new_state,
    events: list[dict],
    *,
    seat: int,
    actor: str,
    action: engine.Action,
    before: engine.MatchState,
    told_first: list[dict] | tuple = (),
) -> None:
    """Store a move: the new state, its events (after the site's own, `told_first`: the clock ran out),
    the action on the first engine event (the replay plays it again), the next deadline, the settlement."""
    now = timezone.now()
    pace.note_move()
    _count_own_move(match, seat, actor)
    match.state = engine.to_json(new_state)
    match.version += 1
    match.score = list(new_state.score)
    if engine.is_over(new_state):
        match.status = Match.Status.FINISHED
        match.winner_side = engine.match_winner(new_state)
        match.finished_at = now
    schedule_next_turn(match, new_state, now)
    # A new hand: the machines partnered with a person sign it (a table with partner signals only).
    save_match(match, SIGNED_FIELDS if machines_sign(match, new_state) else STORED_FIELDS)
    told = [MatchEvent(match=match, version=match.version, seat=seat, actor=actor, data=event) for event in told_first]
    told += [
        MatchEvent(
            match=match,
            version=match.version,
            seat=seat,
            actor=actor,
            data=event,
            action=None if n else action.to_dict(),
        )
        for n, event in enumerate(events)
    ]
    MatchEvent.objects.bulk_create(told)
    hidden = None
    if action.kind == "play":
        # A face-down card (or the one hidden beneath a double play) is in no event; the replay of a
        # match stored before the actions were kept (games.table.replay_legacy) shows its owner it from here.
        hidden = action.card if action.face_down else action.hidden
    if hidden is not None:
        dealt = DealtCards.objects.filter(match=match, hand_number=before.hand_number, seat=seat).first()
        if dealt is not None:
            dealt.face_down = [*dealt.face_down, hidden]
            dealt.save(update_fields=["face_down"])
    if any(event.get("type") == "hand_dealt" for event in events):
        record_deal(match, new_state)
    if match.status == Match.Status.FINISHED:
        settle_finished_match(match, list(match.seats.all()))
