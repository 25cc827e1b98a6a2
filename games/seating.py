"""Which seat of a match belongs to the person making a request (signed in, or a guest by session token)."""

from __future__ import annotations

GUEST_SEATS_KEY = "guest_seat_tokens"


def guest_tokens(session) -> list[str]:
    if session is None:
        return []
    return list(session.get(GUEST_SEATS_KEY, []))


def remember_guest_seat(session, token: str) -> None:
    # Kept in the session data (not tied to the session key), so it survives signing up afterwards.
    tokens = guest_tokens(session)[-19:] + [token]
    session[GUEST_SEATS_KEY] = tokens


def seat_for(match, user, session):
    seats = list(match.seats.all())
    if user is not None and getattr(user, "is_authenticated", False):
        for seat in seats:
            if seat.user_id == user.pk:
                return seat
    tokens = set(guest_tokens(session))
    for seat in seats:
        if seat.guest_token and seat.guest_token in tokens:
            return seat
    return None
