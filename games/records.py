"""A finished match read as stats' MatchRecords: one per seat of a person with an account.

Used when the match is settled (stats counts it in the same transaction) and by the statistics
rebuild (`stats.services.register_record_source`, connected in games' AppConfig.ready).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from games import engine
from games.models import Match, MatchEvent, Seat, Tournament
from games.selectors import absent_seats, played_it
from stats.facts import MatchRecord


def mode_of(match: Match, seats: list[Seat]) -> str:
    if match.kind == Match.Kind.TOURNAMENT:
        return "tournament"
    people = sum(1 for seat in seats if seat.is_human)
    return "multiplayer" if people > 1 and not any(seat.is_bot for seat in seats) else "ai"


def match_records(
    match: Match, seats: list[Seat], events: list[dict], *, tournament_won: bool = False, only_seat: int | None = None
) -> list[MatchRecord]:
    """The records of a FINISHED match's people with accounts (none for an abandoned or a practice one)."""
    if match.status != Match.Status.FINISHED or match.finished_at is None or match.practice:
        return []
    rules = engine.RuleSet.from_dict(match.rules)
    mode = mode_of(match, seats)
    absent = absent_seats(match)
    # A match someone did not play (left, or let a robot or the clock make most of their moves) pays
    # no achievement coins to anyone: what its people unlock with it, they unlock without the coins.
    everyone_played = all(played_it(match, seat, absent) for seat in seats if seat.is_human)
    records = []
    for seat in seats:
        if seat.user_id is None or seat.is_bot or (only_seat is not None and seat.number != only_seat):
            continue
        played = played_it(match, seat, absent)
        # Whoever did not play it did not win it: their robot (or the clock) did.
        won = played and match.won_by(seat.number)
        records.append(
            MatchRecord(
                user_id=seat.user_id,
                reference=f"match:{match.public_id}",
                finished_at=match.finished_at,
                mode=mode,
                variant=rules.variant,
                seats=rules.seats,
                seat=seat.number,
                side=engine.side_of(rules, seat.number),
                won=won,
                events=events,
                tournament_won=tournament_won and won,
                left=not played,
                achievement_coins=everyone_played,
            )
        )
    return records


def all_records() -> Iterator[MatchRecord]:
    """Every finished match's records, for the rebuild (events read match by match)."""
    finished = (
        Match.objects.filter(status=Match.Status.FINISHED, finished_at__isnull=False, practice=False)
        .select_related("tournament")
        .prefetch_related("seats")
        .order_by("finished_at", "id")
    )
    for match in finished.iterator(chunk_size=200):
        events = list(MatchEvent.objects.filter(match=match).order_by("id").values_list("data", flat=True))
        yield from match_records(match, list(match.seats.all()), events, tournament_won=final_won(match))


def final_won(match: Match) -> bool:
    """The match was the final of a tournament that ended won: the title."""
    return (
        match.tournament_id is not None
        and match.tournament_stage == len(Tournament.STAGES) - 1
        and cast(Tournament, match.tournament).status == Tournament.Status.WON
    )
