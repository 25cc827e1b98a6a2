"""Spectators of a room's match: the lobby's "Watch" (live), the options copied onto the match at its start,
and the table chat for spectators (they read and write it; the chief may mute a spectator, never a player)."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games.models import Match
from rooms import chat, services
from rooms.chat import ChatRefused
from rooms.consumers import CLOSE_NOT_IN_ROOM
from rooms.models import ChatLine, ChatMute, Room
from tests.support.rooms import options
from tests.support.sockets import open_socket

call = sync_to_async


def start_room(chief, others, *, seats=2, partnership=None, spectators=True, signals=False, private=False):
    """A room with these options, started by its last join (private rooms: the chief fills with bots)."""
    extra = {"name": "Mesa", "password": "segredo1"} if private else {}
    room = services.create_room(chief, options(seats=seats, partnership=partnership), is_private=private, **extra)
    Room.objects.filter(pk=room.pk).update(allow_spectators=spectators, partner_signals=signals)
    for person in others:
        services.join_room(person, room.code)
    if private:
        services.fill_with_bots_and_start(chief, room.code, "easy")
    room.refresh_from_db()
    return room


def client_for(user=None, *, htmx=False) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en", **({"HTTP_HX_REQUEST": "true"} if htmx else {}))  # type: ignore[arg-type]
    if user is not None:
        client.force_login(user)
    return client


# --- the match gets the room's options ----------------------------------------------------------


@pytest.mark.django_db
def test_a_room_match_copies_the_spectator_and_signal_options_at_its_start(person):
    ana, bia, caio, dani = (person(n) for n in ("Ana", "Bia", "Caio", "Dani"))
    teams = start_room(ana, [bia, caio, dani], seats=4, partnership=True, spectators=False, signals=True)
    assert (teams.match.allow_spectators, teams.match.partner_signals) == (False, True)
    duel = start_room(person("Eva"), [person("Fabi")], spectators=True, signals=False)
    assert (duel.match.allow_spectators, duel.match.partner_signals) == (True, False)


# --- the lobby ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_lobby_offers_to_watch_public_matches_that_allow_it_and_no_others(person):
    ana, bia = person("Ana"), person("Bia")
    open_room = start_room(ana, [bia])
    closed_room = start_room(person("Caio"), [person("Dani")], spectators=False)
    private_room = start_room(person("Eva"), [], private=True)
    html = client_for(person("Watcher")).get(reverse("rooms:lobby")).content.decode()
    assert f'data-watch-room="{open_room.code}"' in html
    assert f'href="/play/m/{open_room.match.public_id}/"' in html and 'data-action="watch"' in html
    assert f'data-watch-room="{closed_room.code}"' not in html
    assert f'data-watch-room="{private_room.code}"' not in html
    # A match that is over is no longer offered.
    Match.objects.filter(pk=open_room.match_id).update(status=Match.Status.FINISHED)
    html = client_for(person("Other")).get(reverse("rooms:lobby")).content.decode()
    assert "data-watch-room" not in html


@pytest.mark.django_db
def test_someone_not_signed_in_is_asked_to_sign_in_to_watch(person):
    start_room(person("Ana"), [person("Bia")])
    html = client_for().get(reverse("rooms:lobby")).content.decode()
    assert "data-watch-room" in html and "Sign in to watch" in html and 'data-action="watch"' not in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lobby_shows_a_match_to_watch_live_when_its_room_starts(person):
    ana, bia, watcher = await call(person)("Ana"), await call(person)("Bia"), await call(person)("Watcher")
    lobby = await open_socket("/ws/rooms/", watcher)
    assert "data-watch-room" not in await lobby.receive_from(timeout=3)
    room = await call(services.create_room)(ana, options(seats=2))
    await lobby.receive_from(timeout=3)  # the new waiting room
    await call(services.join_room)(bia, room.code)
    assert f'data-watch-room="{room.code}"' in await lobby.receive_from(timeout=3)
    await lobby.disconnect()


# --- the chat for spectators ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_spectator_writes_in_the_table_chat_and_the_line_says_so(person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = start_room(ana, [bia])
    line = chat.say(caio, room, text="boa jogada")
    assert line.by_spectator and not chat.say(bia, room, text="valeu").by_spectator
    panel = client_for(caio).get(reverse("rooms:match_chat", args=[room.match.public_id])).content.decode()
    assert 'id="chat-panel"' in panel and "boa jogada" in panel and "data-spectator-line" in panel


@pytest.mark.django_db
def test_no_chat_for_someone_not_seated_where_spectators_are_not_allowed_or_before_the_start(person):
    ana, caio = person("Ana"), person("Caio")
    closed = start_room(ana, [person("Bia")], spectators=False)
    with pytest.raises(ChatRefused) as refused:
        chat.say(caio, closed, text="oi")
    assert refused.value.code == "not_at_the_table"
    assert client_for(caio).get(reverse("rooms:match_chat", args=[closed.match.public_id])).status_code == 204
    waiting = services.create_room(person("Dani"), options(seats=2))
    with pytest.raises(ChatRefused):
        chat.say(caio, waiting, text="oi")
    assert not ChatLine.objects.exists()


@pytest.mark.django_db
def test_the_chief_mutes_a_spectator_whose_lines_are_then_refused_with_a_message(person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = start_room(ana, [bia])
    line = chat.say(caio, room, text="vai perder")
    mute_url = reverse("rooms:chat_mute", args=[room.code, caio.pk])
    # Only the chief sees the button, and only on a spectator's line.
    chief_panel = client_for(ana).get(reverse("rooms:match_chat", args=[room.match.public_id])).content.decode()
    assert f'hx-post="{mute_url}"' in chief_panel and 'data-action="mute-spectator"' in chief_panel
    player_panel = client_for(bia).get(reverse("rooms:match_chat", args=[room.match.public_id])).content.decode()
    assert "mute-spectator" not in player_panel
    # Bia (not the chief) cannot mute; Ana can.
    assert "chief may do that" in client_for(bia, htmx=True).post(mute_url).content.decode()
    assert not ChatMute.objects.exists()
    assert "Muted" in client_for(ana, htmx=True).post(mute_url).content.decode()
    answer = client_for(caio, htmx=True).post(reverse("rooms:chat_say", args=[room.code]), {"text": "oi?"})
    assert "chief muted you" in answer.content.decode()
    assert "HX-Trigger" not in answer  # the input keeps the text: nothing was sent
    assert list(ChatLine.objects.values_list("pk", flat=True)) == [line.pk]
    # Let them speak again.
    chat.mute(ana, room, caio.pk, on=False)
    assert chat.say(caio, room, text="desculpa").by_spectator


@pytest.mark.django_db
def test_the_chief_lists_the_muted_spectators_and_lets_one_write_again_from_the_list(person):
    ana, bia, caio, dani = person("Ana"), person("Bia"), person("Caio"), person("Dani")
    room = start_room(ana, [bia])
    chat_url = reverse("rooms:match_chat", args=[room.match.public_id])
    mute_url = reverse("rooms:chat_mute", args=[room.code, caio.pk])
    chat.say(caio, room, text="vai perder")
    chat.say(dani, room, text="oi")
    # Muting answers with the message and, out of band, the chief's list with Caio in it.
    answer = client_for(ana, htmx=True).post(mute_url).content.decode()
    assert 'id="chat-muted"' in answer and 'hx-swap-oob="true"' in answer
    assert "Caio" in answer and f'hx-post="{mute_url}"' in answer and "Dani" not in answer
    # The chief's panel lists Caio (their lines no longer show, so the list is the only way back).
    panel = client_for(ana).get(chat_url).content.decode()
    assert "Muted spectators" in panel and 'data-action="unmute-spectator"' in panel and "Let Caio write again" in panel
    # No one else sees the list.
    assert "data-chat-muted" not in client_for(bia).get(chat_url).content.decode()
    # The button on the list lets Caio write again, and the list empties.
    answer = client_for(ana, htmx=True).post(mute_url, {"on": "0"}).content.decode()
    assert "may write again" in answer and 'id="chat-muted"' in answer and "Caio" not in answer
    assert not ChatMute.objects.exists()
    assert chat.say(caio, room, text="desculpa").by_spectator


@pytest.mark.django_db
def test_the_muted_list_reads_in_portuguese(person):
    ana, caio = person("Ana"), person("Caio")
    room = start_room(ana, [person("Bia")])
    chat.mute(ana, room, caio.pk)
    client = Client(HTTP_ACCEPT_LANGUAGE="pt-br")
    client.force_login(ana)
    panel = client.get(reverse("rooms:match_chat", args=[room.match.public_id])).content.decode()
    assert "Espectadores silenciados" in panel and "Deixar Caio escrever de novo" in panel


@pytest.mark.django_db
def test_players_cannot_be_muted(person):
    ana, bia = person("Ana"), person("Bia")
    room = start_room(ana, [bia])
    answer = client_for(ana, htmx=True).post(reverse("rooms:chat_mute", args=[room.code, bia.pk]))
    assert "Players cannot be muted" in answer.content.decode()
    assert not ChatMute.objects.exists()
    assert chat.say(bia, room, text="ainda falo").text == "ainda falo"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_spectator_reads_the_chat_live_and_the_players_read_the_spectators_lines(person):
    ana, bia, caio = await call(person)("Ana"), await call(person)("Bia"), await call(person)("Caio")
    room = await call(start_room)(ana, [bia])
    watcher = await open_socket(f"/ws/room/{room.code}/chat/", caio)
    await watcher.receive_from(timeout=3)  # the history (empty)
    player = await open_socket(f"/ws/room/{room.code}/chat/", bia)
    await player.receive_from(timeout=3)
    await call(chat.say)(bia, room, text="bom jogo")
    assert "bom jogo" in await watcher.receive_from(timeout=3)
    assert "bom jogo" in await player.receive_from(timeout=3)
    await call(chat.say)(caio, room, text="torcendo")
    heard = await player.receive_from(timeout=3)
    assert "torcendo" in heard and "data-spectator-line" in heard
    await watcher.receive_from(timeout=3)
    await watcher.disconnect()
    await player.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_chat_socket_for_a_stranger_where_spectators_are_not_allowed(person):
    ana, bia, caio = await call(person)("Ana"), await call(person)("Bia"), await call(person)("Caio")
    room = await call(start_room)(ana, [bia], spectators=False)
    comm = await open_socket(f"/ws/room/{room.code}/chat/", caio)
    assert "Only the people at this table" in await comm.receive_from(timeout=3)
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_NOT_IN_ROOM
