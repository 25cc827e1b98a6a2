"""Friendly annulment of a room's match (issue 12 item 3, seed 002 "anular partida").

Any person playing at the table proposes; every person still playing (robots and bots do not
vote: a seat whose person left is played by a robot) must agree within ROOMS_ANNUL_VOTE_S. The
last "yes" annuls the match (games.match.moves.annul_match: no points, no ranking, no statistics, the
stakes returned); one "no", or the clock, ends the vote and the match goes on. One vote at a
time; a person whose proposal was refused or ran out waits ROOMS_ANNUL_COOLDOWN_S to propose again.

Each call is one transaction that locks the room's row, then the match's (the order every room
service uses), so proposals and answers arriving together are applied one after the other. A
refusal is a `RoomRefused` with a stable code; it changes nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, cast

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.match.moves import annul_match
from games.models import Match, Seat
from games.table import publishing as table_publishing
from shop import wallet

from . import publishing
from .models import AnnulmentVote, Room
from .services import RoomRefused

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class VoteFacts:
    """What the vote panel shows: the latest vote as the clock reads it now."""

    status: str
    proposer: str
    agreed: list[str]
    waiting: list[str]
    refused_by: str
    expires_at: datetime


def voters(match: Match) -> list[Seat]:
    """The seats whose people vote: people with accounts still playing (not a bot, not a robot's seat)."""
    seats = Seat.objects.filter(match=match).select_related("user").order_by("number")
    robots = set(match.robot_seats or [])  # away too long or left: a robot plays it (games.match.presence)
    return [
        seat
        for seat in seats
        if seat.is_human and seat.user_id is not None and seat.left_at is None and seat.number not in robots
    ]


def status_of(vote: AnnulmentVote, now: datetime | None = None) -> str:
    """An open vote past its time has expired: read off the clock, never stored by a read."""
    if vote.status == AnnulmentVote.Status.OPEN and (now or timezone.now()) >= vote.expires_at:
        return AnnulmentVote.Status.EXPIRED
    return vote.status


def latest_vote(match: Match) -> AnnulmentVote | None:
    return AnnulmentVote.objects.filter(match=match).select_related("proposer", "refused_by").first()


def vote_facts(match: Match) -> VoteFacts | None:
    vote = latest_vote(match)
    if vote is None:
        return None
    names = {seat.user_id: cast("User", seat.user).username for seat in voters(match)}  # voters have accounts
    return VoteFacts(
        status=status_of(vote),
        proposer=vote.proposer.username,
        agreed=[names[pk] for pk in vote.agreed if pk in names],
        waiting=[name for pk, name in names.items() if pk not in vote.agreed],
        refused_by=vote.refused_by.username if vote.refused_by else "",
        expires_at=vote.expires_at,
    )


def may_propose_at(user: User, match: Match, now: datetime | None = None) -> datetime | None:
    """When this person may propose again after their refused or timed-out proposal (None: now)."""
    now = now or timezone.now()
    last = AnnulmentVote.objects.filter(match=match, proposer=user).first()
    if last is None:
        return None
    status = status_of(last, now)
    ends: dict[str, datetime | None] = {
        AnnulmentVote.Status.REFUSED: last.ended_at,
        AnnulmentVote.Status.EXPIRED: last.expires_at,
    }
    ended = ends.get(status)
    if ended is None:
        return None
    until = ended + timedelta(seconds=settings.ROOMS_ANNUL_COOLDOWN_S)
    return until if until > now else None


def propose(user: User, public_id: str) -> AnnulmentVote:
    """Open a vote to annul the match; the proposer agrees by proposing."""
    with transaction.atomic():
        room, match, people = _locked(user, public_id)
        now = timezone.now()
        vote = latest_vote(match)
        if vote is not None and status_of(vote, now) == AnnulmentVote.Status.OPEN:
            raise RoomRefused("vote_under_way", _("A vote to annul this match is already under way."))
        until = may_propose_at(user, match, now)
        if until is not None:
            seconds = int((until - now).total_seconds()) + 1
            raise RoomRefused(
                "too_soon",
                _("Your last proposal was not accepted: you may propose again in %(seconds)s s.")
                % {"seconds": seconds},
            )
        if len(people) < 2:
            raise RoomRefused("too_few_voters", _("An annulment needs at least two people playing at the table."))
        vote = AnnulmentVote.objects.create(
            room=room,
            match=match,
            proposer=user,
            agreed=[user.pk],
            expires_at=now + timedelta(seconds=settings.ROOMS_ANNUL_VOTE_S),
        )
        publishing.announce(room.pk)
    return vote


@wallet.retry_once_on_deadlock
def answer(user: User, public_id: str, *, agree: bool) -> AnnulmentVote:
    """Agree or refuse. The last "yes" annuls the match; a "no" ends the vote and the match goes on."""
    with transaction.atomic():
        room, match, people = _locked(user, public_id)
        now = timezone.now()
        vote = latest_vote(match)
        if vote is None or status_of(vote, now) != AnnulmentVote.Status.OPEN:
            raise RoomRefused("no_vote", _("There is no vote to annul this match under way."))
        if user.pk in vote.agreed:
            raise RoomRefused("already_agreed", _("You already agreed; waiting for the others."))
        if not agree:
            vote.status, vote.refused_by, vote.ended_at = AnnulmentVote.Status.REFUSED, user, now
            vote.save(update_fields=["status", "refused_by", "ended_at"])
        else:
            vote.agreed = [*vote.agreed, user.pk]
            if {seat.user_id for seat in people} <= set(vote.agreed):
                vote.status, vote.ended_at = AnnulmentVote.Status.ACCEPTED, now
                annul_match(match, now=now)
                _tell_the_table(match.pk, match.version)
            vote.save(update_fields=["agreed", "status", "ended_at"])
        publishing.announce(room.pk)
    return vote


def _locked(user: User | None, public_id: str) -> tuple[Room, Match, list[Seat]]:
    room = Room.objects.select_for_update(of=("self",)).filter(match__public_id=str(public_id)[:16]).first()
    if room is None:
        raise RoomRefused("no_such_match", _("There is no room match at this link."))
    match = Match.objects.select_for_update().get(pk=cast(int, room.match_id))  # found by its match: it has one
    people = voters(match)
    if user is None or user.pk not in {seat.user_id for seat in people}:
        # No user: `user_id=None` reads as IS NULL (a bot's seat, never left nor a robot's): "not a player".
        seat = Seat.objects.filter(match=match, user_id=getattr(user, "pk", None)).first()  # type: ignore[misc]
        if seat is not None and (seat.left_at is not None or seat.number in (match.robot_seats or [])):
            raise RoomRefused("robot_seat", _("A robot plays your seat now, and robots do not vote."))
        raise RoomRefused("not_a_player", _("Only the people playing at this table vote."))
    if match.status != Match.Status.ACTIVE:
        raise RoomRefused("match_over", _("This match is over."))
    return room, match, people


def _tell_the_table(match_pk: int, version: int) -> None:
    """After the commit, every socket at the table reads the annulled match."""

    def send() -> None:
        try:
            async_to_sync(table_publishing.publish)(match_pk, version)
        except Exception:  # stored: the table's sockets re-read an idle table within seconds
            log.exception("could not tell the table of match %s it was annulled", match_pk)

    transaction.on_commit(send)
