"""Friends and invitations in real Chromium (issue 33): Ana asks Bia to be friends by name; the request shows
on Bia's bell live; Bia accepts; Ana invites her from the private room's waiting room; Bia, on another page,
sees the invitation appear in her header and joins from it in one click, without the password."""

import pytest
from playwright.sync_api import expect

from rooms import services
from rooms.models import RoomSeat
from tests.support.browser import sign_in
from tests.support.rooms import options

pytestmark = pytest.mark.browser


def test_two_people_befriend_and_one_joins_the_others_room_from_the_header(live_daphne, browser, make_user):
    ana, bia = make_user("Ana"), make_user("Bia")
    pages = {}
    for user, locale in ((ana, "en"), (bia, "pt-BR")):
        context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
        sign_in(context, live_daphne, user)
        pages[user.username] = context.new_page()
    ana_page, bia_page = pages["Ana"], pages["Bia"]
    bia_page.goto(f"{live_daphne.url}/play/")
    bell = bia_page.locator("#notices-count")
    expect(bell).to_be_hidden()  # nothing new yet

    # Ana asks by name; Bia's bell counts the request without a reload.
    ana_page.goto(f"{live_daphne.url}/friends/")
    ana_page.fill("#friend-name", "bia")
    ana_page.click("[data-action=friend-request]")
    expect(ana_page.locator("[data-request-to=Bia], .messages")).not_to_have_count(0)
    expect(bell).to_have_attribute("data-notices-count", "1")
    bia_page.click("[data-action=notices]")
    expect(bell).to_be_hidden()  # opened: seen
    bia_page.click("[data-action=friend-requests]")
    bia_page.click("[data-request-from=Ana] [data-action=friend-accept]")
    expect(bia_page.locator("[data-friend=Ana]")).to_be_visible()

    # Ana's private room: she invites Bia from the waiting room's list.
    room = services.create_room(ana, options(seats=4), is_private=True, name="Nossa", password="segredo1")
    bia_page.goto(f"{live_daphne.url}/play/")
    ana_page.goto(f"{live_daphne.url}/rooms/r/{room.code}/")
    ana_page.click("[data-invitable=Bia] [data-action=invite-friend]")
    expect(ana_page.locator("[data-invitable=Bia] [data-invited]")).to_be_visible()

    # Bia sees it live in her header and joins in one click, without the password.
    expect(bell).to_have_attribute("data-notices-count", "1")
    bia_page.click("[data-action=notices]")
    invitation = bia_page.locator("[data-invitation]")
    expect(invitation).to_contain_text("Ana")
    expect(invitation).to_be_in_viewport()
    invitation.locator("[data-action=invitation-join]").click()
    bia_page.wait_for_url(f"**/rooms/r/{room.code}/")
    expect(bia_page.locator("#room-seats")).to_contain_text("Bia")
    assert RoomSeat.objects.filter(room=room, user=bia, left_at__isnull=True).exists()
    # And Ana's waiting room shows her seated, live.
    expect(ana_page.locator("#room-seats")).to_contain_text("Bia")
