"""Games' part of privacy (export, deletion), claiming a guest's matches after signing up or in, and the public
profile's latest matches."""

import logging

from allauth.account.signals import user_logged_in
from asgiref.sync import async_to_sync
from django.db import transaction
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.friends import Whereabouts
from accounts.signals import (
    account_deleting,
    personal_data_requested,
    profile_sections_requested,
    whereabouts_requested,
)
from games import selectors
from games.match.moves import abandon_matches_of
from games.match.rewards import claim_seats
from games.models import Match, Seat, Tournament
from games.seating import guest_tokens
from games.table.publishing import account_closed_message, player_group, publish, send_to_group

log = logging.getLogger(__name__)


@receiver(personal_data_requested, dispatch_uid="games_personal_data")
def export_matches(sender, user, **kwargs):
    seats = Seat.objects.filter(user=user).select_related("match").order_by("match__created_at")
    return {
        "matches": [
            {
                "match": s.match.public_id,
                "kind": s.match.kind,
                "rules": s.match.rules,
                "seat": s.number,
                "status": s.match.status,
                "score": s.match.score,
                "winner_side": s.match.winner_side,
                "created_at": s.match.created_at.isoformat(),
            }
            for s in seats
        ],
        "tournaments": [
            {"tournament": t.public_id, "stage": t.stage, "status": t.status, "created_at": t.created_at.isoformat()}
            for t in Tournament.objects.filter(user=user)
        ],
    }


@receiver(account_deleting, dispatch_uid="games_forget_player")
def forget_player(sender, user, **kwargs):
    # The person's matches in progress end now (abandoned: their side loses, nobody is paid), so a
    # table left open in another tab can make no move for a seat that belongs to nobody.
    ended = abandon_matches_of(user)
    # Matches stay for the other players, with a neutral "deleted player" in this seat.
    Seat.objects.filter(user=user).update(user=None, display_name="", guest_token="")
    user_pk = user.pk
    transaction.on_commit(lambda: tell_tables_the_account_is_gone(user_pk, ended))


def tell_tables_the_account_is_gone(user_pk: int, ended: list[tuple[int, int]]) -> None:
    """Close the deleted player's sockets on every process, and show the other seats the match is over.

    Best effort: with the channel layer down the sockets stay open until they next reconnect, but
    their matches are over, so every move they send is refused.
    """
    try:
        async_to_sync(send_to_group)(player_group(user_pk), account_closed_message())
        for match_pk, version in ended:
            async_to_sync(publish)(match_pk, version)
    except Exception as exc:
        log.warning("could not tell the tables of deleted account %s: %r", user_pk, exc)


@receiver(user_logged_in, dispatch_uid="games_claim_guest_seats")
def claim_guest_seats(sender, request, user, **kwargs):
    """A guest who signs up (or in) from the result screen keeps their matches, and a finished one pays."""
    tokens = guest_tokens(getattr(request, "session", None))
    if tokens:
        claim_seats(user, tokens)


@receiver(profile_sections_requested, dispatch_uid="games_profile_matches")
def recent_matches_section(sender, request, player, profile, **kwargs):
    """The public profile's latest finished matches (issue 33), behind the same switch as the statistics:
    hidden from others when the player keeps their statistics to themselves."""
    if not profile.statistics_shown_to(request.user):
        return ""
    rows = selectors.recent_matches(player, request.user)
    return render_to_string("games/_profile_matches.html", {"rows": rows, "player": player}, request=request)


@receiver(whereabouts_requested, dispatch_uid="games_whereabouts")
def playing_a_match(sender, user_ids, **kwargs):
    """Friends at a table now (issue 33): a match whose table allows spectators can be watched."""
    seats = Seat.objects.filter(user_id__in=user_ids, match__status=Match.Status.ACTIVE).select_related("match")
    for seat in seats:
        if seat.match.allow_spectators:
            url = reverse("games:table", args=[seat.match.public_id])
            yield seat.user_id, Whereabouts(_("Playing a match"), url=url, action=_("Watch"), rank=2)
        else:
            yield seat.user_id, Whereabouts(_("Playing a match"), rank=0)
