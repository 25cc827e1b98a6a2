"""Account services: profile changes, the personal-data export and the deletion of an account."""

from __future__ import annotations

from typing import Any, cast

from allauth.account.models import EmailAddress
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import friends
from .models import Profile, User
from .signals import account_deleting, personal_data_requested


def update_profile(
    user: User,
    *,
    display_name: str,
    country: str,
    public_stats: bool | None = None,
    table_chat: bool | None = None,
    show_whereabouts: bool | None = None,
) -> None:
    """Save a new display name and country together (validation is the form's job).

    Raises ValidationError, changing nothing, if someone took the name (or a look-alike) since the form
    checked it: the database's unique constraints decide.
    """
    previous = user.username
    try:
        with transaction.atomic():
            if user.username != display_name:
                user.username = display_name
                user.save(update_fields=["username"])
            profile, _created = Profile.objects.get_or_create(user=user)
            profile.country = country
            fields = ["country", "updated_at"]
            if public_stats is not None:
                profile.public_stats = public_stats
                fields.append("public_stats")
            if table_chat is not None:
                profile.table_chat = table_chat
                fields.append("table_chat")
            if show_whereabouts is not None:
                profile.show_whereabouts = show_whereabouts
                fields.append("show_whereabouts")
            profile.save(update_fields=fields)
    except IntegrityError as exc:
        user.username = previous
        raise ValidationError(_("That display name is already taken."), code="display_name_taken") from exc


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def export_personal_data(user: User) -> dict[str, Any]:
    """Everything stored about the person, as one JSON-able document."""
    profile, _created = Profile.objects.get_or_create(user=user)
    data: dict[str, Any] = {
        "exported_at": timezone.now().isoformat(),
        "account": {
            "display_name": user.username,
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
            "is_staff": user.is_staff,
        },
        "profile": {
            "country": str(profile.country.code) if profile.country else "",
            "country_name": str(profile.country.name) if profile.country else "",
            "avatar": profile.avatar,
            "public_stats": profile.public_stats,
            "table_chat": profile.table_chat,
            "show_whereabouts": profile.show_whereabouts,
            "created_at": _iso(profile.created_at),
            "updated_at": _iso(profile.updated_at),
        },
        "email_addresses": [
            {"email": e.email, "verified": e.verified, "primary": e.primary}
            for e in EmailAddress.objects.filter(user=user).order_by("id")
        ],
    }
    data.update(friends.personal_data(user))
    for _receiver, section in personal_data_requested.send(sender=User, user=user):
        data.update(cast(dict, section or {}))  # each receiver answers with its section
    return data


def _delete_sessions_of(user: User) -> None:
    # Sessions store the user id inside an encoded blob, not as a foreign key.
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            session.delete()


def delete_account(user: User) -> None:
    """Remove the person and every row about them; shared records keep a neutral 'deleted player'."""
    with transaction.atomic():
        account_deleting.send(sender=User, user=user)
        _delete_sessions_of(user)
        user.delete()
