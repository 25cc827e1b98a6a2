"""The lobby, creating a room, joining, the waiting room and its buttons. Thin: parse, call one service, answer.

Buttons inside pushed fragments post with htmx (the page's `hx-headers` carries the CSRF token); a
successful or refused action answers with a redirect (`HX-Redirect` for htmx) to the page that
shows the result, with the refusal as a message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast
from urllib.parse import quote, urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts import notices
from games.models import Match, RewardSettings
from games.views import client_address

from . import again as again_service
from . import annulment, chat, invitations, passwords, rendering, selectors, services
from . import options as options_service
from .chat import ChatRefused
from .forms import CreateRoomForm, LobbyFilterForm, QuickJoinForm, RoomPasswordForm, TableOptionsForm
from .models import Room, RoomSettings
from .services import RoomOptions, RoomRefused

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def lobby(request):
    _say_how_play_again_ended(request)
    # Just out of a room (`?out_of=<code>`, where the room's socket or the chief's close sends them): why, and
    # the blue coins back, read from the person's own seat, never from the address.
    departure = selectors.departure_from(request.user, request.GET.get("out_of", ""))
    filters = LobbyFilterForm(request.GET or None, auto_id="filter_%s")
    chosen = filters.filters()
    my_room = selectors.waiting_room_of(request.user)
    rooms = selectors.waiting_public_rooms(**chosen)
    context = {
        "filters": filters,
        "quick_join": QuickJoinForm(
            initial={"variant": chosen["variant"] or "paulista", "table": chosen["seats"] or "2"}
        ),
        "lobby": rendering.lobby_rooms_context(
            rooms,
            my_room=my_room,
            signed_in=request.user.is_authenticated,
            watchable=selectors.watchable_rooms(**chosen),
        ),
        "my_room": my_room,
        "price": RoomSettings.current().entry_blue_coins,
        "rewards": RewardSettings.current(),
        "socket_query": request.GET.urlencode(),
        "departure": rendering.departure_context(departure) if departure else None,
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
                friends_only=data["friends_only"],
                ip=client_ip(request),
            )
        except RoomRefused as refusal:
            form.add_error(None, refusal_text(refusal))
        else:
            return redirect("rooms:room", code=room.code)
    return render(
        request,
        "rooms/create.html",
        {"form": form, "price": RoomSettings.current().entry_blue_coins, "rewards": RewardSettings.current()},
        status=200,
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
        match = cast(Match, found.match)  # match_id is set
        if match.status in (Match.Status.FINISHED, Match.Status.ANNULLED):
            return redirect("rooms:again", public_id=match.public_id)
        return redirect("games:table", public_id=match.public_id)
    people = selectors.people_in(found)
    here = reverse("rooms:room", kwargs={"code": found.code})
    invite = passwords.well_formed_invite(request.GET.get("invite"))
    invite_url = request.build_absolute_uri(here)
    if found.is_private:
        # The invite link carries the room's key: with it the password is taken even while the room
        # is locked against guessing (rooms/passwords.py).
        invite_url += "?" + urlencode({"invite": passwords.invite_key(found)})
    context = {
        "room": found,
        "summary": rendering.options_summary(found),
        "seated": seat is not None,
        "price": RoomSettings.current().entry_blue_coins,
        "invite_url": invite_url,
        "password_form": RoomPasswordForm(),
        # Carried into the password form as it came (checked when posted, so the page tells nothing).
        "invite": invite,
        "next_here": quote(here + ("?" + urlencode({"invite": invite}) if invite else ""), safe="/"),
        "taken": len(people),
        # A person the chief invited, or a friend of the chief at a friends-only private room, joins with one
        # click (issue 33).
        "friend_of_chief": request.user.is_authenticated and services.sits_without_password(found, request.user),
        "invited": request.user.is_authenticated
        and found.invitations.filter(recipient=request.user, dismissed_at__isnull=True).exists(),
    }
    context["options_region"] = rendering.options_context(
        found, request.user, changeable=selectors.options_changeable(found)
    )
    if seat is None:
        departure = selectors.departure_from(request.user, found.code)  # back on the page they were sent from
        context["departure"] = rendering.departure_context(departure) if departure else None
    if seat is not None:
        context["seats_region"] = rendering.room_seats_context(found, people, request.user)
        if found.chief_id == request.user.pk and found.status == Room.Status.WAITING:
            invitable = selectors.invitable_friends(found, request.user)
            context["invite_friends"] = rendering.invite_friends_context(found, invitable)
        context["go_region"] = rendering.room_go_context(found, seated=True)
        context["chat"] = _chat_context(request.user, found)
    return render(request, "rooms/room.html", context)


@login_required
def again(request, public_id: str):
    """After a room's match: play again with the same people (live on the room's socket) or not."""
    found = Room.objects.select_related("match").filter(match__public_id=public_id).first()
    if found is None or selectors.seat_of(found, request.user) is None:
        return render(request, "rooms/no_room.html", status=404)
    if cast(Match, found.match).status == Match.Status.ACTIVE:  # found by its match
        return redirect("games:table", public_id=public_id)
    facts = selectors.play_again_facts(found)
    context = {
        "room": found,
        "summary": rendering.options_summary(found),
        "seconds": settings.ROOMS_PLAY_AGAIN_S,
        "unavailable": rendering.again_ended_text(None),
    }
    if facts is not None:
        context["again_region"] = rendering.again_context(
            found, facts, selectors.people_in(found), request.user, RoomSettings.current().entry_blue_coins
        )
        context["go_region"] = rendering.again_go_context(facts, public_id)
        context["options_region"] = rendering.options_context(
            found, request.user, changeable=selectors.options_changeable(found)
        )
    return render(request, "rooms/again.html", context)


# --- the chief's table options (issue 12 item 1) -----------------------------------------------


@login_required
@require_POST
def options_open(request, code: str):
    return _options_call(request, code, options_service.open_panel, in_place=True)


@login_required
@require_POST
def options_close(request, code: str):
    return _options_call(request, code, options_service.close_panel, in_place=True)


@login_required
@require_POST
def options_save(request, code: str):
    form = TableOptionsForm(request.POST)
    if not form.is_valid():
        first = next(iter(form.errors.values()))[0]
        messages.error(request, first)  # type: ignore[arg-type]  # a form error's message
        return go(request, reverse("rooms:room", kwargs={"code": code}))
    chosen = options_service.TableOptions(**form.cleaned_data)
    return _options_call(request, code, lambda user, room_code: options_service.change_options(user, room_code, chosen))


def _options_call(request, code: str, call, *, in_place: bool = False) -> HttpResponse:
    try:
        room = call(request.user, code)
    except RoomRefused as refusal:
        messages.error(request, refusal_text(refusal))
        return go(request, reverse("rooms:room", kwargs={"code": code}))
    if in_place and request.headers.get("HX-Request"):
        # The panel opens or closes where it stands, as the room's socket redraws it for everyone. A
        # reload here raced that push: the chief could type into the form the socket drew and save,
        # and the reload then threw the save away (a browser test caught it now and then).
        context = rendering.options_context(room, request.user, changeable=selectors.options_changeable(room))
        return HttpResponse(rendering.render_room_options(context, oob=True))
    return go(request, reverse("rooms:room", kwargs={"code": code}))


@login_required
@require_POST
def again_accept(request, public_id: str):
    here = reverse("rooms:again", kwargs={"public_id": public_id})
    try:
        again_service.accept(request.user, public_id, ip=client_ip(request))
    except RoomRefused as refusal:
        messages.error(request, refusal_text(refusal))
    return go(request, here)


@login_required
@require_POST
def again_decline(request, public_id: str):
    try:
        again_service.decline(request.user, public_id)
    except RoomRefused as refusal:
        messages.error(request, refusal_text(refusal))
        return go(request, reverse("rooms:lobby"))
    return go(request, reverse("rooms:lobby") + "?" + urlencode({"again": public_id}))


def _say_how_play_again_ended(request) -> None:
    """The lobby after "Play again" ended without a match: say why (`?again=<match id>`)."""
    public_id = str(request.GET.get("again", ""))[:32]
    if not public_id:
        return
    found = Room.objects.select_related("match").filter(match__public_id=public_id).first()
    if found is None or selectors.seat_of(found, request.user) is None:
        return
    text = rendering.again_ended_text(selectors.play_again_facts(found))
    if text:
        messages.info(request, text)


@login_required
@require_POST
def join(request, code: str):
    here = reverse("rooms:room", kwargs={"code": code})
    if not Room.objects.filter(code=code).exists():
        return render(request, "rooms/no_room.html", status=404)
    # Oversized is simply wrong (and counted), never hashed at any length.
    password = str(request.POST.get("password", ""))[:200]
    invite = passwords.well_formed_invite(request.POST.get("invite"))
    try:
        passwords.join(request.user, code, password=password, invite=invite, ip=client_ip(request))
    except RoomRefused as refusal:
        messages.error(request, refusal_text(refusal))
        # Back to the same form, the invite link's key still in it.
        return go(request, here + ("?" + urlencode({"invite": invite}) if invite else ""))
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
    return _act(request, code, lambda: services.close_room(request.user, code), then=rendering.lobby_after(code))


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


# A refusal the shop can cure: its message ends with a link there (data-nav, the link's text).
SHOP_CURES = {
    "no_blue_coins": ("shop-blue-coins", gettext_lazy("Get blue coins in the shop.")),
    "stake_not_covered": ("shop-coins", gettext_lazy("Get coins in the shop.")),
}


def refusal_text(refusal: RoomRefused):
    if refusal.code not in SHOP_CURES:
        return refusal.message
    nav, link_text = SHOP_CURES[refusal.code]
    return format_html('{} <a href="{}" data-nav="{}">{}</a>', refusal.message, reverse("shop:index"), nav, link_text)


def client_ip(request) -> str | None:
    """The address a seat is taken from (the same-address rule for rank points): the one the match
    limits and sign-in count, X-Forwarded-For only behind `TRUSTED_PROXY_COUNT` trusted proxies."""
    return client_address(request) or None


# --- the table chat: writing, reporting and the switch answer htmx with a fragment -----------------


@login_required
@require_POST
def chat_say(request, code: str):
    room = Room.objects.filter(code=code).first()
    if room is None:
        return render(request, "rooms/no_room.html", status=404)
    try:
        chat.say(request.user, room, text=request.POST.get("text", ""), phrase=request.POST.get("phrase", ""))
    except ChatRefused as refusal:
        return _chat_answer(request, room, refusal.message)
    response = _chat_answer(request, room, "")
    # The browser empties the input only when the line was taken (static/rooms/chat.js).
    response["HX-Trigger"] = "chat-sent"
    return response


@login_required
@require_POST
def chat_report(request, code: str, line_id: int):
    room = Room.objects.filter(code=code).first()
    if room is None:
        return render(request, "rooms/no_room.html", status=404)
    try:
        chat.report_line(request.user, room, line_id)
    except ChatRefused as refusal:
        return _chat_answer(request, room, refusal.message)
    return _chat_answer(request, room, _("Thank you: the staff will look at this line."))


@login_required
@require_POST
def chat_switch(request, code: str):
    room = Room.objects.filter(code=code).first()
    if room is None or not selectors.at_the_table(room, request.user):
        return HttpResponse(_("Only the people at this table can use its chat."), status=403)
    chat.set_table_chat(request.user, request.POST.get("on") == "1")
    return HttpResponse(_chat_panel(request, room))


@login_required
def match_chat(request, public_id: str):
    """The chat panel a room match's table page loads; nothing for other matches or people not at that table."""
    room = selectors.room_of_match(public_id)
    if room is None or not selectors.at_the_table(room, request.user):
        return HttpResponse(status=204)
    return HttpResponse(_chat_panel(request, room))


@login_required
@require_POST
def chat_mute(request, code: str, user_id: int):
    """The chief mutes a spectator (`on=0` lets them speak again); players cannot be muted."""
    room = Room.objects.filter(code=code).first()
    if room is None:
        return render(request, "rooms/no_room.html", status=404)
    on = request.POST.get("on", "1") != "0"
    try:
        chat.mute(request.user, room, user_id, on=on)
    except ChatRefused as refusal:
        return _chat_answer(request, room, refusal.message)
    # The chief's list of muted spectators changes with it (out of band, beside the message).
    muted = rendering.render_muted(rendering.muted_context(room, selectors.muted_spectators(room)), oob=True)
    return _chat_answer(
        request,
        room,
        _("Muted: that spectator's lines no longer reach this table.") if on else _("That spectator may write again."),
        also=muted,
    )


def _chat_panel(request, room: Room) -> str:
    return rendering.render_chat_panel(_chat_context(request.user, room), request)


def _chat_context(user, room: Room) -> dict:
    on = selectors.table_chat_on(user)
    is_chief = room.chief_id is not None and room.chief_id == user.pk
    return rendering.chat_panel_context(
        room,
        on=on,
        lines=selectors.recent_chat_lines(room, user.pk) if on else [],
        viewer_id=user.pk,
        watching=selectors.watching(room, user),
        muted=rendering.muted_context(room, selectors.muted_spectators(room)) if is_chief and on else None,
    )


def _chat_answer(request, room: Room, message, *, also: str = "") -> HttpResponse:
    """htmx: the message for `#chat-message` (and ``also``, out-of-band fragments); a plain form post:
    back to the room with the message."""
    if request.headers.get("HX-Request"):
        return HttpResponse(escape(message) + also)
    if message:
        messages.info(request, message)
    return redirect("rooms:room", code=room.code)


# --- friendly annulment at a room's table (issue 12 item 3) -------------------------------------


def match_annul(request, public_id: str):
    """The annulment vote panel a room match's table page loads (with its socket); nothing for others."""
    room = selectors.room_of_match(public_id)
    if room is None or selectors.seat_of(room, request.user) is None:
        return HttpResponse(status=204)
    vote = _annul_region(room, request.user)
    return render(request, "rooms/_annul_panel.html", {"code": room.code, "vote": vote})


def _annul_region(room: Room, user) -> str:
    return rendering.render_annul_vote(rendering.annul_vote_context(room, user))


@login_required
@require_POST
def annul_propose(request, public_id: str):
    return _annul_call(request, lambda: annulment.propose(request.user, public_id))


@login_required
@require_POST
def annul_yes(request, public_id: str):
    return _annul_call(request, lambda: annulment.answer(request.user, public_id, agree=True))


@login_required
@require_POST
def annul_no(request, public_id: str):
    return _annul_call(request, lambda: annulment.answer(request.user, public_id, agree=False))


def _annul_call(request, call) -> HttpResponse:
    """htmx: the refusal's message for `#annul-message` (empty when done: the socket shows the vote);
    a plain post: back to the table with the message."""
    message: StrOrPromise = ""
    try:
        call()
    except RoomRefused as refusal:
        message = refusal.message
    if request.headers.get("HX-Request"):
        return HttpResponse(escape(message))
    if message:
        messages.error(request, message)
    public_id = request.resolver_match.kwargs["public_id"]
    return redirect("games:table", public_id=public_id)


# --- invitations (issue 33): the chief invites from the waiting room; the invited answer from the header --


@login_required
@require_POST
def invite(request, code: str):
    """The chief invites a friend; htmx gets the invitation list back (with the refusal in it, if any)."""
    error: StrOrPromise = ""
    try:
        invitations.invite(request.user, code, name=str(request.POST.get("name", ""))[:150])
    except RoomRefused as refusal:
        error = refusal.message
        if not request.headers.get("HX-Request"):
            messages.error(request, refusal_text(refusal))
    if not request.headers.get("HX-Request"):
        return go(request, reverse("rooms:room", kwargs={"code": code}))
    room = Room.objects.filter(code=code).first()
    if room is None or room.chief_id != request.user.pk:
        return go(request, reverse("rooms:room", kwargs={"code": code}))  # the page says what happened
    context = rendering.invite_friends_context(room, selectors.invitable_friends(room, request.user))
    return HttpResponse(rendering.render_invite_friends({**context, "error": error}))


@login_required
@require_POST
def invitation_accept(request, invitation_id: int):
    """Join the invitation's room in one click, from the header wherever the person is."""
    try:
        room = invitations.accept(request.user, invitation_id, ip=client_ip(request))
    except RoomRefused as refusal:
        # Whatever stopped it (the room started, no blue coins, a forged id), the lobby says so and offers
        # other rooms.
        messages.error(request, refusal_text(refusal))
        return go(request, reverse("rooms:lobby"))
    return go(request, reverse("rooms:room", kwargs={"code": room.code}))


@login_required
@require_POST
def invitation_dismiss(request, invitation_id: int):
    try:
        invitations.dismiss(request.user, invitation_id)
    except RoomRefused as refusal:
        messages.error(request, refusal_text(refusal))
        return go(request, reverse("rooms:lobby"))
    if request.headers.get("HX-Request"):
        return HttpResponse(status=204)  # the header's socket pushes the list without it
    return go(request, reverse("rooms:lobby"))


@login_required
@require_POST
def notices_seen(request):
    """The header's list was opened: its count goes to zero in every tab."""
    notices.mark_seen(request.user.pk)
    return HttpResponse(status=204)
