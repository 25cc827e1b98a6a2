"""The chief's table options (issue 12 item 1): the panel, what it may change and when, and the
"being changed" icon the others see live on the room's socket. Refusals change nothing."""

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Match
from rooms import options as table_options
from rooms import rendering, services
from rooms.models import Room
from tests.support.matches import win_match_for
from tests.support.rooms import options
from tests.support.stakes import set_coins, set_stake


def post_options(client, room, **chosen):
    data = {"move_seconds": "99", "mode": "competitive", "stake_coins": "0", "allow_spectators": "1", **chosen}
    return client.post(f"/rooms/r/{room.code}/options/", data, follow=True)


@pytest.fixture
def client():
    """A browser that reads English (the site's default is Brazilian Portuguese)."""
    return Client(HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.django_db
def test_the_chief_sets_the_options_from_the_panel(client, person):
    ana = person("Ana")
    set_coins(ana, 300)
    room = services.create_room(ana, options(seats=4, partnership=True))
    client.force_login(ana)
    page = client.post(f"/rooms/r/{room.code}/options/open/", follow=True).content.decode()
    assert 'data-form="table-options"' in page
    post_options(
        client,
        room,
        move_seconds="30",
        stake_coins="50",
        partner_signals="1",
        allow_spectators="",
        is_private="1",
        password="segredo",
    )
    room.refresh_from_db()
    assert (room.move_seconds, room.stake_coins, room.partner_signals, room.allow_spectators, room.is_private) == (
        30,
        50,
        True,
        False,
        True,
    )
    assert room.options_opened_at is None and room.name  # a private table gets a name (the chief's table)
    page = client.get(f"/rooms/r/{room.code}/").content.decode()
    assert "stake 50 coins" in page and "no spectators" in page and "partner signals" in page


@pytest.mark.django_db
def test_the_panel_opens_and_closes_in_place_without_reloading_the_page(client, person):
    # A reload after "open" raced the room socket's push of the same form: a save typed into the pushed
    # form was thrown away by the reload. The htmx answer is now the region itself, swapped where it is.
    ana = person("Ana")
    room = services.create_room(ana, options(seats=4, partnership=True))
    client.force_login(ana)
    opened = client.post(f"/rooms/r/{room.code}/options/open/", HTTP_HX_REQUEST="true")
    html = opened.content.decode()
    assert opened.status_code == 200 and "HX-Redirect" not in opened.headers
    assert '<div id="room-options" class="room-options-region" hx-swap-oob="true">' in html
    assert 'data-form="table-options"' in html and 'data-option="signals"' in html
    room.refresh_from_db()
    assert room.options_opened_at is not None
    closed = client.post(f"/rooms/r/{room.code}/options/close/", HTTP_HX_REQUEST="true")
    html = closed.content.decode()
    assert closed.status_code == 200 and 'data-form="table-options"' not in html
    assert 'data-action="open-options"' in html
    # Without htmx (no script), the page is sent again, as before.
    assert client.post(f"/rooms/r/{room.code}/options/open/").status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        ({"stake_coins": "-5"}, "A stake is a whole number of coins, zero or more."),
        ({"stake_coins": "abc"}, "A stake is a whole number of coins, zero or more."),
        ({"stake_coins": "900"}, "has 300 coins and cannot cover a stake of 900"),
        ({"stake_coins": "10", "mode": "practice"}, "A practice table plays for no coins"),
        ({"partner_signals": "1"}, "Partner signals are for tables of four playing in pairs."),
        ({"is_private": "1"}, "A private table needs a password"),
        ({"move_seconds": "5"}, "Select a valid choice"),
        ({"mode": "bet"}, "Select a valid choice"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message_and_change_nothing(client, person, chosen, message):
    ana = person("Ana")
    set_coins(ana, 300)
    room = services.create_room(ana, options())
    client.force_login(ana)
    before = Room.objects.filter(pk=room.pk).values().get()
    page = post_options(client, room, **chosen).content.decode()
    assert message in page
    assert Room.objects.filter(pk=room.pk).values().get() == before


@pytest.mark.django_db
def test_only_the_chief_changes_the_options(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    client.force_login(bia)
    assert "Only the room&#x27;s chief may do that." in post_options(client, room, stake_coins="0").content.decode()
    with pytest.raises(services.RoomRefused) as refused:
        table_options.open_panel(bia, room.code)
    assert refused.value.code == "not_chief"
    page = client.get(f"/rooms/r/{room.code}/").content.decode()
    assert 'data-action="open-options"' not in page


@pytest.mark.django_db
def test_options_do_not_change_during_a_match_but_do_between_matches(person):
    ana, bia = person("Ana"), person("Bia")
    for user in (ana, bia):
        set_coins(user, 300)
    room = services.create_room(ana, options())
    services.join_room(bia, room.code)
    room.refresh_from_db()
    with pytest.raises(services.RoomRefused) as refused:
        set_stake(ana, room, 10)
    assert refused.value.code == "match_in_play"
    with pytest.raises(services.RoomRefused):
        table_options.open_panel(ana, room.code)
    win_match_for(room.match, side=0)
    assert Match.objects.get(pk=room.match_id).status == Match.Status.FINISHED
    set_stake(ana, room, 10)  # between matches: the next one (play again) is played for 10
    assert Room.objects.get(pk=room.pk).stake_coins == 10


@pytest.mark.django_db
def test_the_panel_marks_the_options_being_changed_for_a_while_only(person, settings):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    table_options.open_panel(ana, room.code)
    room.refresh_from_db()
    assert rendering.options_context(room, bia, changeable=True)["changing"]
    assert not rendering.options_context(room, ana, changeable=True)["changing"]  # the chief sees the panel
    later = timezone.now() + timezone.timedelta(seconds=settings.ROOMS_OPTIONS_OPEN_S + 1)
    assert not rendering.options_context(room, bia, changeable=True, now=later)["changing"]
