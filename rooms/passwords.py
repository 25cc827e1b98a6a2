"""A private room's password against guessing: the caps on wrong passwords, and the invite key (issue 28).

Whoever has a private room's address may type passwords at it, so a typed password is compared with
the room's hash only once it has taken a place under each of these caps (sliding windows, counted in
the cache: Redis, shared by every process; this process's memory while Redis is down):

- one account at one room: 5 in 5 minutes; one account over all rooms: 20 in 5 minutes (a person
  mistyping gets a few tries, one account never many);
- one address over all rooms and accounts: 10 in 15 minutes (five accounts from one address are one
  guesser; the address is the one sign-in counts, `TRUSTED_PROXY_COUNT`-aware, an IPv6 address by
  its /64 as allauth's limits take it);
- one room, whoever guesses from wherever: 10 in 15 minutes (many addresses are still one room's
  guessers).

Taking the place first makes the caps hold for guesses sent all at once. A place is given back when
the password was right or the join was refused for another reason (room full, no blue coins): only
wrong passwords count. A full cap refuses typed passwords, the right one too, until its oldest wrong
password leaves the window: a lock that the right password opens would tell the guesser the moment
they found it.

The room's cap would then lock its own people out, so the invite link carries the room's invite key
(`invite_key`: an HMAC of the room's code and password hash under the site's secret, so only the site
makes one and a new password makes a new one). A password typed with the valid key does not wait on
the room's cap: the chief's invitees still get in while strangers who learned the room's address have
locked it. The key is not a password of its own (the right password is still needed), and the
account's and the address's caps still hold; a wrong password typed with the key counts like any
other, the room's cap included.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from allauth.core.internal.ratelimit import cache_lock, truncate_ip
from django.core.cache import cache
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import ngettext

from . import services
from .models import Room
from .services import RoomRefused

if TYPE_CHECKING:
    from accounts.models import User

# The clock the windows are read on (a test moves it).
clock = time.time

INVITE_KEY_LENGTH = 32
_INVITE_KEY = re.compile(r"[0-9a-f]{32}")


@dataclass(frozen=True)
class Cap:
    scope: str  # who is held: "person_room", "person", "address", "room"
    most: int  # wrong passwords allowed in any window
    window_s: int


PERSON_AT_ROOM = Cap("person_room", 5, 5 * 60)
PERSON = Cap("person", 20, 5 * 60)
ADDRESS = Cap("address", 10, 15 * 60)
ROOM = Cap("room", 10, 15 * 60)


def invite_key(room: Room) -> str:
    """The key a private room's invite link carries (32 hex digits)."""
    value = f"{room.code}:{room.password_hash}"
    return salted_hmac("rooms.passwords.invite_key", value, algorithm="sha256").hexdigest()[:INVITE_KEY_LENGTH]


def well_formed_invite(value: object) -> str:
    """An invite key as a request carries it, or "" for anything that cannot be one (junk, NUL, megabytes)."""
    value = str(value or "")
    return value if _INVITE_KEY.fullmatch(value) else ""


def is_invite_key(room: Room, key: str) -> bool:
    return bool(room.is_private and well_formed_invite(key)) and constant_time_compare(key, invite_key(room))


def join(user: User, code: str, *, password: str = "", invite: str = "", ip: str | None = None) -> Room:
    """Join a room from its page: a private room's password is checked only once it has a place under
    every cap (the room's own cap is skipped with the room's invite key). Raises RoomRefused."""
    room = Room.objects.filter(code=str(code)[:32]).only("pk", "code", "is_private", "password_hash").first()
    if room is None or not room.is_private or not password:
        # Nothing to guess: a public room, no room, or no password (refused without comparing anything).
        return services.join_room(user, code, password=password, ip=ip)
    invited = is_invite_key(room, invite)
    counters = [
        (PERSON_AT_ROOM, f"rooms:guesses:person-room:{user.pk}:{room.pk}"),
        (PERSON, f"rooms:guesses:person:{user.pk}"),
        (ADDRESS, f"rooms:guesses:address:{_address_key(ip)}"),
    ]
    room_counter = (ROOM, f"rooms:guesses:room:{room.pk}")
    places = _take_places(counters if invited else [*counters, room_counter])
    wrong = False
    try:
        return services.join_room(user, code, password=password, ip=ip)
    except RoomRefused as refusal:
        wrong = refusal.code == "wrong_password"
        raise
    finally:
        if not wrong:
            _give_back(places)
        elif invited:
            _count(*room_counter)


def _address_key(ip: str | None) -> str:
    # Hashed: a header-borne address may hold anything; every unknown address shares one count.
    address = truncate_ip(ip) if ip else "unknown"
    return hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()


def _take_places(counters: list[tuple[Cap, str]]) -> list[tuple[Cap, str, float]]:
    """One place under each cap, or none at all: RoomRefused("too_many_guesses") naming the first full cap."""
    taken: list[tuple[Cap, str, float]] = []
    for cap, key in counters:
        now = clock()
        wait_s = None
        with cache_lock(key) as locked:
            if not locked:
                wait_s = 60.0  # the count is too busy to read: refuse rather than guess it is open
            else:
                history = _fresh(cache.get(key, []), cap, now)
                if len(history) >= cap.most:
                    # Open again once the oldest of the last `most` wrong passwords is out of the window.
                    wait_s = history[-cap.most] + cap.window_s - now
                else:
                    cache.set(key, [*history, now], cap.window_s)
        if wait_s is not None:
            _give_back(taken)
            raise RoomRefused("too_many_guesses", lock_message(cap, wait_s))
        taken.append((cap, key, now))
    return taken


def _give_back(places: list[tuple[Cap, str, float]]) -> None:
    for cap, key, stamp in places:
        with cache_lock(key) as locked:
            if not locked:
                continue  # not given back: the cap only gets stricter
            history = list(cache.get(key, []))
            if stamp in history:
                history.remove(stamp)
                cache.set(key, history, cap.window_s)


def _count(cap: Cap, key: str) -> None:
    """Count a wrong password under a cap it did not have to wait on (the room's, for a key holder)."""
    now = clock()
    with cache_lock(key) as locked:
        if locked:
            # Only the last `most` matter (they decide when the cap opens), so the list stays short.
            cache.set(key, [*_fresh(cache.get(key, []), cap, now), now][-cap.most :], cap.window_s)


def _fresh(history: list[float], cap: Cap, now: float) -> list[float]:
    """The wrong passwords still in the window, oldest first."""
    return sorted(stamp for stamp in history if stamp > now - cap.window_s)


def lock_message(cap: Cap, wait_s: float) -> str:
    minutes = max(1, math.ceil(wait_s / 60))
    if cap.scope == ROOM.scope:
        text = ngettext(
            "Someone has been guessing this room's password: for %(minutes)d more minute it takes the password "
            "only from its invite link. Open the invite link you were sent, or wait.",
            "Someone has been guessing this room's password: for %(minutes)d more minutes it takes the password "
            "only from its invite link. Open the invite link you were sent, or wait.",
            minutes,
        )
    elif cap.scope == ADDRESS.scope:
        text = ngettext(
            "Too many wrong room passwords came from your network. Try again in %(minutes)d minute.",
            "Too many wrong room passwords came from your network. Try again in %(minutes)d minutes.",
            minutes,
        )
    else:
        text = ngettext(
            "Too many wrong passwords. Try again in %(minutes)d minute.",
            "Too many wrong passwords. Try again in %(minutes)d minutes.",
            minutes,
        )
    return text % {"minutes": minutes}
