"""The lobby, creating a room, joining, the waiting room and its buttons. Thin: parse, call one service, answer.

Buttons inside pushed fragments post with htmx (the page's `hx-headers` carries the CSRF token); a
successful or refused action answers with a redirect (`HX-Redirect` for htmx) to the page that
shows the result, with the refusal as a message.
"""

from __future__ import annotations

from allauth.core.internal import ratelimit
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from . import rendering, selectors, services
from .forms import CreateRoomForm, LobbyFilterForm, QuickJoinForm, RoomPasswordForm
from .models import Room, RoomSettings
from .services import RoomOptions, RoomRefused

# Wrong room passwords: 5 per person per room in 5 minutes, 20 per person over all rooms (allauth's
# rate limiter, the one that guards sign-in, counting in the shared cache).
PASSWORD_RATE = {"room_password": "5/5m/key,20/5m/user"}


def lobby(request):
    filters = LobbyFilterForm(request.GET or None, auto_id="filter_%s")
    chosen = filters.filters()
    my_room = selectors.waiting_room_of(request.user)
    rooms = selectors.waiting_public_rooms(**chosen)
    context = {
        "filters": filters,
        "quick_join": QuickJoinForm(
            initial={"variant": chosen["variant"] or "paulista", "table": chosen["seats"] or "2"}
        ),
        "lobby": rendering.lobby_rooms_context(rooms, my_room=my_room, signed_in=request.user.is_authenticated),
        "my_room": my_room,
        "price": RoomSettings.current().entry_blue_coins,
        "socket_query": request.GET.urlencode(),
    }
    return render(request, "rooms/lobby.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def create(request):
    form = CreateRoomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            room = services.create_room(
                request.user,
                RoomOptions(rules=data["rules"], move_seconds=data["move_seconds"], mode=data["mode"]),
                is_private=data["visibility"] == "private",
                name=data["name"],
                password=data["password"],
                ip=client_ip(request),
            )
        except RoomRefused as refusal:
            form.add_error(None, refusal_text(refusal))
        else:
            return redirect("rooms:room", code=room.code)
    return render(
        request, "rooms/create.html", {"form": form, "price": RoomSettings.current().entry_blue_coins}, status=200
    )


@login_required
@require_POST
def quick_join(request):
    form = QuickJoinForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Pick a variant and a number of players."))
        return go(request, reverse("rooms:lobby"))
    try:
        room = services.quick_join(request.user, form.rules(), ip=client_ip(request))
    except RoomRefused as refusal:
        messages.error(request, refusal_text(refusal))
        return go(request, reverse("rooms:lobby"))
    return go(request, reverse("rooms:room", kwargs={"code": room.code}))


def room(request, code: str):
    """The waiting room for the people in it; a join button (public) or the password form (private) for others."""
    found = Room.objects.select_related("chief", "match").filter(code=code).first()
    if found is None:
        return render(request, "rooms/no_room.html", status=404)
    seat = selectors.seat_of(found, request.user)
    if found.status == Room.Status.STARTED and seat is not None and found.match_id:
        return redirect("games:table", public_id=found.match.public_id)
    people = selectors.people_in(found)
    context = {
        "room": found,
        "summary": rendering.options_summary(found),
        "seated": seat is not None,
        "price": RoomSettings.current().entry_blue_coins,
        "invite_url": request.build_absolute_uri(reverse("rooms:room", kwargs={"code": found.code})),
        "password_form": RoomPasswordForm(),
        "taken": len(people),
    }
    if seat is not None:
        context["seats_region"] = rendering.room_seats_context(found, people, request.user)
        context["go_region"] = rendering.room_go_context(found, seated=True)
    return render(request, "rooms/room.html", context)


@login_required
@require_POST
def join(request, code: str):
    here = reverse("rooms:room", kwargs={"code": code})
    found = Room.objects.filter(code=code).first()
    if found is None:
        return render(request, "rooms/no_room.html", status=404)
    password = ""
    if found.is_private:
        # Oversized is simply wrong (and counted), never hashed at any length.
        password = str(request.POST.get("password", ""))[:200]
        key = f"{found.pk}:{request.user.pk}"
        if not ratelimit.consume(
            request, app="rooms", action="room_password", config=PASSWORD_RATE, key=key, dry_run=True
        ):
            messages.error(request, _("Too many wrong passwords. Wait a few minutes and try again."))
            return go(request, here)
    try:
        services.join_room(request.user, code, password=password, ip=client_ip(request))
    except RoomRefused as refusal:
        if refusal.code == "wrong_password":
            ratelimit.consume(request, app="rooms", action="room_password", config=PASSWORD_RATE, key=key)
        messages.error(request, refusal_text(refusal))
        return go(request, here)
    return go(request, here)


@login_required
@require_POST
def seat(request, code: str):
    number = _posted_number(request, "number")
    return _act(request, code, lambda: services.choose_seat(request.user, code, number))


@login_required
@require_POST
def leave(request, code: str):
    return _act(request, code, lambda: services.leave_room(request.user, code), then=reverse("rooms:lobby"))


@login_required
@require_POST
def remove(request, code: str):
    user_id = _posted_number(request, "user")
    return _act(request, code, lambda: services.remove_player(request.user, code, user_id))


# Larger than any seat number or account id; a longer number would overflow the database's integer.
POSTED_NUMBER_MAX = 2**31 - 1


def _posted_number(request, name: str) -> int:
    """A posted whole number; -1 (no such seat or person: the service refuses it) for anything else,
    including a number too large for the database to compare (SQLite raises OverflowError on it)."""
    value = str(request.POST.get(name, "")).strip()
    if not (value.isascii() and value.isdigit()) or len(value) > 10 or int(value) > POSTED_NUMBER_MAX:
        return -1
    return int(value)


@login_required
@require_POST
def bots(request, code: str):
    return _act(
        request, code, lambda: services.fill_with_bots_and_start(request.user, code, request.POST.get("level", ""))
    )


@login_required
@require_POST
def close(request, code: str):
    return _act(request, code, lambda: services.close_room(request.user, code), then=reverse("rooms:lobby"))


def _act(request, code: str, action, then: str | None = None):
    here = reverse("rooms:room", kwargs={"code": code})
    try:
        action()
    except RoomRefused as refusal:
        messages.error(request, refusal_text(refusal))
        return go(request, here)
    return go(request, then or here)


def go(request, url: str) -> HttpResponse:
    """Redirect; for an htmx request, a full-page `HX-Redirect` (the page then shows any message)."""
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def refusal_text(refusal: RoomRefused):
    if refusal.code == "no_blue_coins":
        return format_html(
            '{} <a href="{}" data-nav="shop-blue-coins">{}</a>',
            refusal.message,
            reverse("shop:index"),
            _("Get blue coins in the shop."),
        )
    return refusal.message


def client_ip(request) -> str | None:
    # REMOTE_ADDR only; X-Forwarded-For behind trusted proxies comes with the same-address rule (item 9).
    return request.META.get("REMOTE_ADDR") or None
