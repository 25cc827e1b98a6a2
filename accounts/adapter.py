"""allauth's adapter, with two changes: display names are checked as people read them, and the
sign-in lock belongs to the account."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.db.models import Q

from .models import User, display_name_unavailable
from .names import canonical, lookalike_key


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = canonical(username)
        # allauth's checks (our validators, its blacklist) without its taken check: ours knows look-alikes.
        username = super().clean_username(username, shallow=True)
        if not shallow:
            error = display_name_unavailable(username)
            if error is not None:
                raise error
        return username

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        """The key allauth counts failed sign-ins under (5 per 5 minutes, then locked).

        allauth keys it on the request's host (port included) and the login string as typed, so a new
        Host port or the display name instead of the email started a fresh count. Ours is the account
        the login names, however it is written; a login that names no account is counted as typed
        (normalised), so probing unknown logins is limited too.
        """
        login = credentials.get("email") or credentials.get("username") or ""
        account = account_named_by(login)
        if account is not None:
            return f"account:{account.pk}"
        return f"login:{canonical(login).casefold()}"


def account_named_by(login: str) -> User | None:
    """The account a sign-in string names: its email, its display name, or a look-alike of either."""
    login = canonical(str(login))
    if not login:
        return None
    return (
        User.objects.filter(
            Q(email__iexact=login)
            | Q(emailaddress__email__iexact=login)
            | Q(name_key=lookalike_key(login))
            | Q(username__iexact=login)
        )
        .only("pk")
        .order_by("pk")
        .first()
    )
