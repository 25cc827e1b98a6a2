"""Games' part of privacy (export, deletion) and claiming a guest's matches after signing up or in."""

from allauth.account.signals import user_logged_in
from django.dispatch import receiver

from accounts.signals import account_deleting, personal_data_requested

from .models import Seat, Tournament
from .rewards import claim_seats
from .seating import guest_tokens


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
    # Matches stay for the other players, with a neutral "deleted player" in this seat.
    Seat.objects.filter(user=user).update(user=None, display_name="", guest_token="")


@receiver(user_logged_in, dispatch_uid="games_claim_guest_seats")
def claim_guest_seats(sender, request, user, **kwargs):
    """A guest who signs up (or in) from the result screen keeps their matches, and a finished one pays."""
    tokens = guest_tokens(getattr(request, "session", None))
    if tokens:
        claim_seats(user, tokens)
