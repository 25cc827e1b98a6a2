"""The table chat of a room: who may write, what a line may be, the rate, escaping, the last 50 lines on
(re)connect, quick phrases in each reader's language, reports, staff hiding lines, and the switch."""

import pytest
from asgiref.sync import sync_to_async
from django.contrib.admin.sites import site as admin_site
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts import friends
from accounts.services import export_personal_data
from rooms import chat, rendering, selectors, services
from rooms.admin import ChatLineAdmin
from rooms.chat import ChatRefused
from rooms.consumers import CLOSE_NOT_IN_ROOM
from rooms.models import ChatLine, ChatReport, Room
from tests.support.rooms import options
from tests.support.sockets import open_socket

call = sync_to_async


@pytest.fixture
def table(person):
    """A started 2-seat room: Ana (chief) and Bia at the table; Caio is not (and may not watch: spectators
    are tested in test_spectators_in_rooms.py)."""
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = services.create_room(ana, options(seats=2))
    Room.objects.filter(pk=room.pk).update(allow_spectators=False)
    services.join_room(bia, room.code)
    room.refresh_from_db()
    return room, ana, bia, caio


def htmx_client(user) -> Client:
    client = Client(HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_each_authors_name_opens_their_profile_in_a_new_tab(table):
    room, ana, bia, _caio = table
    line = chat.say(bia, room, text="boa sorte")
    context = rendering.chat_line_context(selectors.chat_line_payload(line), ana.pk, room.code)
    frame = rendering.render_chat_lines([context], append=True)
    assert f'<a href="{reverse("accounts:public_profile", args=["Bia"])}" target="_blank" rel="noopener"' in frame


# --- what may be said ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_line_is_stored_cleaned_of_control_characters_and_squeezed(table):
    room, ana, _bia, _caio = table
    line = chat.say(ana, room, text="  boa\u202e   jogada\x07 ")
    assert line.text == "boa jogada"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "code"), [("", "empty"), ("   \t ", "empty"), ("x" * 201, "too_long")], ids=["empty", "blank", "201"]
)
def test_empty_and_oversized_lines_are_refused_and_nothing_is_stored(table, text, code):
    room, ana, _bia, _caio = table
    with pytest.raises(ChatRefused) as refused:
        chat.say(ana, room, text=text)
    assert refused.value.code == code
    assert not ChatLine.objects.exists()


@pytest.mark.django_db
def test_two_hundred_characters_is_the_longest_line(table):
    room, ana, _bia, _caio = table
    assert len(chat.say(ana, room, text="y" * 200).text) == 200


@pytest.mark.django_db
def test_only_the_people_at_the_table_may_write(table):
    room, _ana, _bia, caio = table
    with pytest.raises(ChatRefused) as refused:
        chat.say(caio, room, text="oi")
    assert refused.value.code == "not_at_the_table"
    assert not ChatLine.objects.exists()


@pytest.mark.django_db
def test_an_unknown_quick_phrase_is_refused(table):
    room, ana, _bia, _caio = table
    with pytest.raises(ChatRefused) as refused:
        chat.say(ana, room, phrase="<b>")
    assert refused.value.code == "unknown_phrase"


@pytest.mark.django_db
def test_the_sixth_line_in_ten_seconds_is_refused_and_the_window_moves_on(table):
    room, ana, bia, _caio = table
    for n in range(chat.RATE_LINES):
        chat.say(ana, room, text=f"linha {n}")
    with pytest.raises(ChatRefused) as refused:
        chat.say(ana, room, text="uma a mais")
    assert refused.value.code == "too_fast"
    assert ChatLine.objects.filter(author=ana).count() == chat.RATE_LINES
    chat.say(bia, room, text="Bia has her own count")
    # Ten seconds later (the lines moved back in time), Ana may write again.
    ChatLine.objects.filter(author=ana).update(created_at=timezone.now() - chat.RATE_WINDOW)
    chat.say(ana, room, text="de novo")


# --- over HTTP ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_posting_a_line_answers_htmx_with_the_refusal_or_the_sent_event(table):
    room, ana, _bia, caio = table
    url = reverse("rooms:chat_say", kwargs={"code": room.code})
    taken = htmx_client(ana).post(url, {"text": "bom jogo"})
    assert taken.status_code == 200 and taken["HX-Trigger"] == "chat-sent"
    refused = htmx_client(ana).post(url, {"text": "z" * 250})
    assert "at most 200 characters (this one has 250)" in refused.content.decode()
    assert "HX-Trigger" not in refused
    outsider = htmx_client(caio).post(url, {"text": "oi"})
    assert "Only the people at this table" in outsider.content.decode()
    assert list(ChatLine.objects.values_list("text", flat=True)) == ["bom jogo"]


@pytest.mark.django_db
def test_a_chat_url_for_no_room_is_a_404(table):
    _room, ana, _bia, _caio = table
    response = htmx_client(ana).post(reverse("rooms:chat_say", kwargs={"code": "A" * 22}), {"text": "oi"})
    assert response.status_code == 404


# --- the sockets ---------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_line_reaches_every_chat_socket_escaped(table):
    room, ana, bia, _caio = table
    ana_chat = await open_socket(f"/ws/room/{room.code}/chat/", ana)
    bia_chat = await open_socket(f"/ws/room/{room.code}/chat/", bia)
    for comm in (ana_chat, bia_chat):
        assert 'id="chat-lines"' in await comm.receive_from(timeout=3)  # the (empty) history
    await call(chat.say)(ana, room, text='<script>alert("x")</script> & <b>oi</b>')
    for comm in (ana_chat, bia_chat):
        frame = await comm.receive_from(timeout=3)
        assert 'hx-swap-oob="beforeend"' in frame and "Ana" in frame
        assert "<script>" not in frame and "<b>" not in frame
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;oi&lt;/b&gt;" in frame
    # Bia may report Ana's line; Ana gets no report button on her own line.
    await call(chat.say)(ana, room, text="2")
    assert 'data-action="report-line"' not in await ana_chat.receive_from(timeout=3)
    assert 'data-action="report-line"' in await bia_chat.receive_from(timeout=3)
    await ana_chat.disconnect()
    await bia_chat.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_reconnect_shows_the_last_50_visible_lines_oldest_first(table):
    room, ana, bia, _caio = table

    def fill():
        ChatLine.objects.bulk_create(ChatLine(room=room, author=ana, text=f"line-{n:02d}") for n in range(55))
        ChatLine.objects.filter(text="line-54").update(hidden=True)

    await call(fill)()
    comm = await open_socket(f"/ws/room/{room.code}/chat/", bia)
    frame = await comm.receive_from(timeout=3)
    shown = [n for n in range(55) if f"line-{n:02d}<" in frame]
    assert shown == list(range(4, 54))  # 50 lines: the hidden one out, the 4 oldest beyond the limit
    assert 'id="chat-lines" class="chat-lines" hx-swap-oob="true"' in frame  # replaces, so no line twice
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_quick_phrases_read_in_each_readers_language(table):
    room, ana, bia, _caio = table
    english = await open_socket(f"/ws/room/{room.code}/chat/", ana, language="en")
    portuguese = await open_socket(f"/ws/room/{room.code}/chat/", bia, language="pt-br")
    await english.receive_from(timeout=3)
    await portuguese.receive_from(timeout=3)
    await call(chat.say)(ana, room, phrase="nice")
    assert "Nice one!" in await english.receive_from(timeout=3)
    assert "Boa!" in await portuguese.receive_from(timeout=3)
    await english.disconnect()
    await portuguese.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_someone_not_at_the_table_gets_no_chat(table):
    room, _ana, _bia, caio = table
    comm = await open_socket(f"/ws/room/{room.code}/chat/", caio)
    assert "Only the people at this table" in await comm.receive_from(timeout=3)
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_NOT_IN_ROOM


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_player_removed_from_the_waiting_room_stops_reading_its_chat(person):
    ana, bia, caio = await call(person)("Ana"), await call(person)("Bia"), await call(person)("Caio")
    room = await call(services.create_room)(ana, options(seats=4, partnership=True))
    await call(services.join_room)(bia, room.code)
    await call(services.join_room)(caio, room.code)
    comm = await open_socket(f"/ws/room/{room.code}/chat/", bia)
    await comm.receive_from(timeout=3)
    await call(services.remove_player)(ana, room.code, bia.pk)
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_NOT_IN_ROOM
    with pytest.raises(ChatRefused):
        await call(chat.say)(bia, room, text="still here?")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_staff_hiding_a_line_takes_it_off_open_chats(table):
    room, ana, bia, _caio = table
    line = await call(chat.say)(ana, room, text="feio")
    comm = await open_socket(f"/ws/room/{room.code}/chat/", bia)
    assert "feio" in await comm.receive_from(timeout=3)
    assert await call(chat.hide_lines)(ChatLine.objects.filter(pk=line.pk)) == 1
    assert f'<li id="chat-line-{line.pk}" hx-swap-oob="delete"></li>' == await comm.receive_from(timeout=3)
    await comm.disconnect()
    again = await open_socket(f"/ws/room/{room.code}/chat/", bia)
    assert "feio" not in await again.receive_from(timeout=3)
    await again.disconnect()


# --- reports, the admin, the switch -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_line_is_reported_once_per_person_and_never_by_its_author(table):
    room, ana, bia, _caio = table
    line = chat.say(ana, room, text="hmm")
    chat.report_line(bia, room, line.pk)
    for who, code in ((bia, "already_reported"), (ana, "own_line")):
        with pytest.raises(ChatRefused) as refused:
            chat.report_line(who, room, line.pk)
        assert refused.value.code == code
    with pytest.raises(ChatRefused) as refused:
        chat.report_line(bia, room, "12abc")
    assert refused.value.code == "no_line"
    assert ChatReport.objects.count() == 1


@pytest.mark.django_db
def test_reporting_over_http_thanks_the_reporter(table):
    room, ana, bia, _caio = table
    line = chat.say(ana, room, text="hmm")
    url = reverse("rooms:chat_report", kwargs={"code": room.code, "line_id": line.pk})
    assert "staff will look" in htmx_client(bia).post(url).content.decode()
    assert "already reported" in htmx_client(bia).post(url).content.decode()


@pytest.mark.django_db
def test_the_admin_lists_reported_lines_first_and_hides_them(table, make_user):
    room, ana, bia, _caio = table
    quiet = chat.say(ana, room, text="quiet")
    reported = chat.say(ana, room, text="reported")
    chat.report_line(bia, room, reported.pk)
    staff = make_user("Staff", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    page = client.get(reverse("admin:rooms_chatline_changelist")).content.decode()
    assert page.index("reported") < page.index("quiet")
    client.post(
        reverse("admin:rooms_chatline_changelist"),
        {"action": "hide_selected", "_selected_action": [reported.pk]},
    )
    assert ChatLine.objects.get(pk=reported.pk).hidden and not ChatLine.objects.get(pk=quiet.pk).hidden
    request = RequestFactory().get("/")
    request.user = staff
    assert ChatLineAdmin(ChatLine, admin_site).has_add_permission(request) is False


@pytest.mark.django_db
def test_a_player_who_turns_the_chat_off_sees_and_writes_nothing(table):
    room, ana, bia, _caio = table
    chat.say(ana, room, text="segredo")
    client = htmx_client(bia)
    panel = client.post(reverse("rooms:chat_switch", kwargs={"code": room.code}), {"on": "0"}).content.decode()
    assert 'data-chat="off"' in panel and "segredo" not in panel and "ws-connect" not in panel
    with pytest.raises(ChatRefused) as refused:
        chat.say(bia, room, text="oi")
    assert refused.value.code == "chat_off"
    panel = client.post(reverse("rooms:chat_switch", kwargs={"code": room.code}), {"on": "1"}).content.decode()
    assert 'data-chat="on"' in panel and "segredo" in panel


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_chat_socket_of_someone_whose_chat_is_off_is_closed(table):
    room, _ana, bia, _caio = table
    await call(chat.set_table_chat)(bia, False)
    comm = await open_socket(f"/ws/room/{room.code}/chat/", bia)
    await comm.receive_from(timeout=3)
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_NOT_IN_ROOM


@pytest.mark.django_db
def test_the_table_page_of_a_room_match_loads_the_chat_and_an_ai_match_does_not(table):
    room, ana, _bia, caio = table
    public_id = room.match.public_id
    client = Client()
    client.force_login(ana)
    page = client.get(reverse("games:table", kwargs={"public_id": public_id})).content.decode()
    assert reverse("rooms:match_chat", kwargs={"public_id": public_id}) in page
    panel = client.get(reverse("rooms:match_chat", kwargs={"public_id": public_id}))
    assert 'id="chat-panel"' in panel.content.decode()
    outsider = Client()
    outsider.force_login(caio)
    assert outsider.get(reverse("rooms:match_chat", kwargs={"public_id": public_id})).status_code == 204


@pytest.mark.django_db
def test_the_export_lists_what_a_person_wrote_and_reported(table):
    room, ana, bia, _caio = table
    line = chat.say(ana, room, text="meu texto")
    chat.report_line(bia, room, line.pk)
    assert [entry["text"] for entry in export_personal_data(ana)["chat_lines"]] == ["meu texto"]
    assert [entry["line"] for entry in export_personal_data(bia)["chat_reports"]] == [line.pk]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lines_of_someone_you_blocked_never_reach_you_but_reach_the_others(table):
    """Issue 33: a block hides the blocked person's lines from the blocker, old and new; not the other way."""
    room, ana, bia, _caio = table
    await call(chat.say)(bia, room, text="before-the-block")
    await call(friends.block)(ana, "Bia")
    ana_chat = await open_socket(f"/ws/room/{room.code}/chat/", ana)
    bia_chat = await open_socket(f"/ws/room/{room.code}/chat/", bia)
    assert "before-the-block" not in await ana_chat.receive_from(timeout=3)
    assert "before-the-block" in await bia_chat.receive_from(timeout=3)
    await call(chat.say)(bia, room, text="after-the-block")
    assert "after-the-block" in await bia_chat.receive_from(timeout=3)
    assert await ana_chat.receive_nothing(timeout=0.5)
    await call(chat.say)(ana, room, text="from-the-blocker")  # Bia still reads Ana
    assert "from-the-blocker" in await bia_chat.receive_from(timeout=3)
    assert "from-the-blocker" in await ana_chat.receive_from(timeout=3)

    def page_of(user) -> str:
        return htmx_client(user).get(reverse("rooms:match_chat", args=[room.match.public_id])).content.decode()

    assert "before-the-block" not in await call(page_of)(ana)
    assert "before-the-block" in await call(page_of)(bia)
    await ana_chat.disconnect()
    await bia_chat.disconnect()
