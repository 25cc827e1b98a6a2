"""Read-only queries the game's pages, socket and clock need (writes are the services')."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings as django_settings
from django.core.paginator import Paginator
from django.utils import timezone

from games import engine
from games.models import BotLevel, Match, RewardSettings, Seat, Spectator, Tournament

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

# How many due matches one sweep takes at most.
SWEEP_BATCH = 20


def due_match_ids(now=None, limit: int = SWEEP_BATCH) -> list[int]:
    """Active matches whose deadline has passed, the longest overdue first."""
    now = now or timezone.now()
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", flat=True)[:limit]
    )


def reward_settings() -> RewardSettings:
    """What matches and tournaments pay now (admin-editable), for the pages that promise it."""
    return RewardSettings.current()


# Why a finished match pays a human seat less than its table says (`reward_note`).
NO_REWARD_PRACTICE = "practice"  # a practice room: nothing, no ranking
NO_REWARD_ABSENT = "absent"  # the viewer did not play it (left, or made under half of their moves): nothing
NO_REWARD_PLAYER_LEFT = "player_left"  # someone left before the end: nobody is rewarded (seed 000)
NO_REWARD_PLAYER_ABSENT = "player_absent"  # someone made under half of their moves: nobody is rewarded
NO_POINTS_SAME_ADDRESS = "same_address"  # two people at the table share an address: coins, no rank points (seed 002)
# The notes under which a finished match pays no coins, no rank points and no achievement coins.
NOTHING_PAID = (NO_REWARD_PRACTICE, NO_REWARD_ABSENT, NO_REWARD_PLAYER_LEFT, NO_REWARD_PLAYER_ABSENT)


def left_before_the_end(match: Match, seat: Seat) -> bool:
    """Whether this seat's person left the match (button or grace period) before it ended."""
    return seat.left_at is not None and (match.finished_at is None or seat.left_at <= match.finished_at)


def absent_seats(match: Match) -> set[int]:
    """People's seats whose person made fewer than half of the seat's moves themselves (`Match.own_moves`):
    a robot or the clock played the match for them. The presence rule of docs/decisions.md ("Issue 28")."""
    return {int(seat) for seat, (own, moves) in match.own_moves.items() if own * 2 < moves}


def played_it(match: Match, seat: Seat, absent: set[int] | None = None) -> bool:
    """Whether this seat's person played the match: did not leave before the end and made at least
    half of their seat's moves themselves. A match pays, ranks and unlocks achievements only for them."""
    absent = absent_seats(match) if absent is None else absent
    return seat.is_human and not left_before_the_end(match, seat) and seat.number not in absent


def reward_note(match: Match, seats: list[Seat] | None = None, *, seat_number: int | None = None) -> str:
    """The rule that cuts a match's rewards for the person at `seat_number` (None: for the table), one of
    the NO_* codes, or ""."""
    if match.practice:
        return NO_REWARD_PRACTICE
    seats = list(match.seats.all()) if seats is None else seats
    absent = absent_seats(match)
    mine = next((seat for seat in seats if seat.number == seat_number), None)
    if mine is not None and mine.is_human and not played_it(match, mine, absent):
        return NO_REWARD_ABSENT
    if match.kind != Match.Kind.ROOM:
        return ""
    # Any seat with `left_at` (a seat a robot now plays was a person's): bots never leave.
    if any(left_before_the_end(match, seat) for seat in seats):
        return NO_REWARD_PLAYER_LEFT
    if any(seat.is_human and seat.number in absent for seat in seats):
        return NO_REWARD_PLAYER_ABSENT
    # Only people's seats carry an address (a room copies it from the seat taken); bots have none.
    addresses = [seat.ip_address for seat in seats if seat.ip_address]
    if len(addresses) != len(set(addresses)):
        return NO_POINTS_SAME_ADDRESS
    return ""


def reward_amounts(
    match: Match,
    won: bool,
    settings: RewardSettings | None = None,
    seats: list[Seat] | None = None,
    *,
    seat_number: int | None = None,
) -> tuple[int, int]:
    """(coins, rank points) the person at `seat_number` gets for this match's result; tournament pay
    comes with the final.

    Nothing for a person who did not play the match (`played_it`). A room match (competitive only) pays
    the room amounts, nothing to anyone when someone left before the end or did not play it, and no rank
    points when two people at the table share an address (`reward_note`); a practice match pays nothing.
    Room rules read the seats: pass them when they are at hand (else one query).
    """
    if match.kind == Match.Kind.TOURNAMENT:
        return (0, 0)
    note = reward_note(match, seats, seat_number=seat_number)
    if note in NOTHING_PAID:
        return (0, 0)
    settings = settings or RewardSettings.current()
    if match.kind == Match.Kind.ROOM:
        if won:
            coins, points = settings.room_win_coins, settings.room_win_rank_points
        else:
            coins, points = settings.room_loss_coins, settings.room_loss_rank_points
        return (coins, 0 if note == NO_POINTS_SAME_ADDRESS else points)
    if won:
        return settings.single_win_coins, settings.single_win_rank_points
    return settings.single_loss_coins, settings.single_loss_rank_points


def active_matches(user=None, guest_tokens=(), limit: int = 5) -> list[Match]:
    """An account's or a guest browser's matches in progress, the most recently moved first (the Play page's list)."""
    return list(_active_of(user, guest_tokens).order_by("-updated_at")[:limit])


def active_match_count(user=None, guest_tokens=()) -> int:
    """How many matches an account, or a guest's browser, has in progress (the start limit counts them)."""
    return _active_of(user, guest_tokens).count()


def _active_of(user, guest_tokens):
    if user is not None and user.is_authenticated:
        seats = Seat.objects.filter(user=user)
    elif guest_tokens:
        seats = Seat.objects.filter(guest_token__in=list(guest_tokens), user=None)
    else:
        return Match.objects.none()
    return Match.objects.filter(status=Match.Status.ACTIVE, pk__in=seats.values("match_id"))


def seats_at(match: Match) -> list[Seat]:
    """The match's seats in seat order, with what the table shows of each person (name, avatar, level)."""
    return list(match.seats.select_related("user__profile", "user__player_stats"))


def current_match(tournament: Tournament) -> Match | None:
    """The match of the tournament's current stage (the one being played, or the one that ended it)."""
    return tournament.matches.filter(tournament_stage=tournament.stage).order_by("-created_at").first()


@dataclass(frozen=True)
class BracketStage:
    number: int
    name: str | _StrPromise
    bot: str | _StrPromise  # the level's label, in the page's language
    match: Match | None
    state: str  # upcoming | playing | won | lost


def tournament_bracket(tournament: Tournament) -> list[BracketStage]:
    """Every stage with its state, from the tournament's own record: a stage before the current one
    was won (that is how the tournament got past it); the current one is being played, or it ended
    the tournament one way or the other."""
    matches = {m.tournament_stage: m for m in tournament.matches.all()}
    stages = []
    for number, name in enumerate(Tournament.STAGES):
        match = matches.get(number)
        if number < tournament.stage:
            state = "won"
        elif number > tournament.stage or match is None:
            state = "upcoming"
        elif tournament.status == Tournament.Status.PLAYING:
            state = "playing"
        else:
            state = "won" if tournament.status == Tournament.Status.WON else "lost"
        stages.append(BracketStage(number, name, BotLevel(Tournament.STAGE_BOTS[number]).label, match, state))
    return stages


def recent_results(user, limit: int = 5) -> list[dict]:
    """The player's last finished matches, newest first: rules, score (theirs first), result, coins earned."""
    seats = (
        Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
        .select_related("match")
        .prefetch_related("match__seats")
        .order_by("-match__finished_at", "-match__id")[:limit]
    )
    settings = reward_settings()
    results = []
    for seat in seats:
        match = seat.match
        rules = engine.RuleSet.from_dict(match.rules)
        side = engine.side_of(rules, seat.number)
        won = match.won_by(seat.number)
        others = [points for s, points in enumerate(match.score) if s != side]
        results.append(
            {
                "match": match,
                "won": won,
                "variant": rules.variant,
                "mine": match.score[side] if match.score else 0,
                "theirs": max(others) if others else 0,
                "coins": reward_amounts(match, won, settings, list(match.seats.all()), seat_number=seat.number)[0],
                "bot_level": match.get_bot_level_display(),
            }
        )
    return results


HISTORY_PAGE_SIZE = 20


def _finished_seats_of(user):
    """The person's seats at finished matches, newest first, each with its match and the match's seats."""
    return (
        Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
        .select_related("match")
        .prefetch_related("match__seats")
        .order_by("-match__finished_at", "-match__id")
    )


def _result_row(seat: Seat) -> dict:
    """A finished match as its person's row reads it (history, profile): the result and score, the rules,
    who played against them and with them."""
    match = seat.match
    rules = engine.RuleSet.from_dict(match.rules)
    side = engine.side_of(rules, seat.number)
    others = [points for s, points in enumerate(match.score) if s != side]
    table = list(match.seats.all())
    return {
        "match": match,
        "won": match.won_by(seat.number),
        "variant": rules.variant,
        "seats": rules.seats,
        "opponents": [s.display_name for s in table if engine.side_of(rules, s.number) != side],
        "partners": [
            s.display_name for s in table if engine.side_of(rules, s.number) == side and s.number != seat.number
        ],
        "mine": match.score[side] if match.score else 0,
        "theirs": max(others) if others else 0,
    }


def match_history(user, page_number) -> tuple[object, list[dict]]:
    """A page of the player's finished matches, newest first: opponents, rules, score, result, rewards.

    Returns (the Paginator page, its rows). `page_number` may be anything from a URL: a bad one
    gives the first or the last page (Paginator.get_page).
    """
    page = Paginator(_finished_seats_of(user), HISTORY_PAGE_SIZE).get_page(page_number)
    settings = reward_settings()
    rows = []
    for seat in page.object_list:
        row = _result_row(seat)
        table = list(seat.match.seats.all())
        row["coins"], row["rank_points"] = reward_amounts(
            seat.match, row["won"], settings, table, seat_number=seat.number
        )
        row["reward_note"] = reward_note(seat.match, table, seat_number=seat.number)
        rows.append(row)
    return page, rows


PROFILE_MATCHES = 5


def recent_matches(player, viewer, *, limit: int = PROFILE_MATCHES) -> list[dict]:
    """The player's latest finished matches for their public profile (issue 33): when, the variant, the
    result and score, who they played against and with. A replay link only where `viewer` may open it:
    the replay is for the people who sat at the match (games.views.replay)."""
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    rows = []
    for seat in _finished_seats_of(player)[:limit]:
        row = _result_row(seat)
        row["may_replay"] = viewer_id is not None and any(s.user_id == viewer_id for s in seat.match.seats.all())
        rows.append(row)
    return rows


def spectators_fresh_for() -> timedelta:
    # Three idle checks missed in a row: that spectator's socket (or its process) is gone.
    return timedelta(seconds=3 * django_settings.GAMES_SOCKET_WATCHDOG_S)


def spectator_count(match_pk: int) -> int:
    """How many people watch the match now (two tabs of one person count once)."""
    since = timezone.now() - spectators_fresh_for()
    return Spectator.objects.filter(match_id=match_pk, seen_at__gte=since).values("user_id").distinct().count()
