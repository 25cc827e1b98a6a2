"""Two real Chromium contexts, two accounts: one creates a private room, the other joins by the invite link
and its password; the match starts by itself and both browsers are at the table; then they play it out."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Match
from rooms.models import Room
from shop import wallet
from tests.support.browser import play_quick_turn, sign_in

pytestmark = pytest.mark.browser


def test_a_private_room_by_invite_link_starts_by_itself_and_is_played_to_the_end(
    live_daphne, browser, make_user, settings
):
    settings.SWEEPER_ENABLED = True
    ana, bia = make_user("Anfitria"), make_user("Convidada")
    blue_before = wallet.balance(ana, currency=wallet.BLUE_COINS), wallet.balance(bia, currency=wallet.BLUE_COINS)
    contexts = [browser.new_context(locale="en") for _ in range(2)]
    for context, user in zip(contexts, (ana, bia), strict=True):
        sign_in(context, live_daphne, user)
    host, guest = (context.new_page() for context in contexts)

    # Ana creates a private room for two: she is the chief, in the waiting room, with an invite link.
    host.goto(f"{live_daphne.url}/rooms/new/")
    host.select_option("select[name=visibility]", "private")
    host.fill("input[name=name]", "Mesa da Ana")
    host.fill("input[name=password]", "truco123")
    host.select_option("select[name=table]", "2")
    host.click("[data-action=create-room]")
    expect(host.locator("#room-seats [data-seat-user=Anfitria] [data-chief]")).to_be_visible()
    invite = host.locator("[data-invite-link]").input_value()
    # The room's address with its invite key (the password is still typed; rooms/passwords.py).
    assert re.fullmatch(rf"{re.escape(live_daphne.url)}/rooms/r/[A-Za-z0-9_-]{{22}}/\?invite=[0-9a-f]{{32}}", invite)

    # Bia follows the link; a wrong password is refused with a message, the right one seats her.
    guest.goto(invite)
    guest.fill("input[name=password]", "errada")
    guest.click("[data-action=join-room]")
    expect(guest.locator(".messages")).to_contain_text("That is not the room's password.")
    guest.fill("input[name=password]", "truco123")
    guest.click("[data-action=join-room]")

    # The last seat taken: the match starts, and both browsers are at the table without a reload.
    for page in (host, guest):
        expect(page).to_have_url(re.compile(r"/play/m/[A-Za-z0-9_-]+/$"), timeout=10000)
        expect(page.locator("#status[data-version]")).to_be_visible()
    room = Room.objects.get()
    assert (
        room.status == Room.Status.STARTED
        and host.url == guest.url == f"{live_daphne.url}/play/m/{room.match.public_id}/"
    )
    assert (wallet.balance(ana, currency=wallet.BLUE_COINS), wallet.balance(bia, currency=wallet.BLUE_COINS)) == (
        blue_before[0] - 1,
        blue_before[1] - 1,
    )
    for page in (host, guest):
        expect(page.locator("#hand .card")).to_have_count(3)

    # They play it out through the UI (Ana's side raising, Bia's raising back once and running: a few hands).
    side = {host: room.match.seats.get(number=0).user_id == ana.pk}
    side[guest] = not side[host]
    for _ in range(200):
        room.match.refresh_from_db()
        if room.match.status != Match.Status.ACTIVE:
            break
        if not play_quick_turn(side):
            host.wait_for_timeout(100)
    room.match.refresh_from_db()
    assert room.match.status == Match.Status.FINISHED and max(room.match.score) >= 12
    # The end of a room's match leads back to the rooms, not to the Play page against the AI.
    for page in (host, guest):
        expect(page.locator("#status [data-action=back-to-rooms]")).to_have_attribute("href", "/rooms/")
        expect(page.locator("#status [data-action=play-again]")).to_have_count(0)
    for context in contexts:
        context.close()


def test_quick_join_appears_live_in_another_lobby_and_one_click_fills_it(live_daphne, browser, make_user):
    ana, bia = make_user("Rapida"), make_user("Atenta")
    contexts = [browser.new_context(locale="pt-BR") for _ in range(2)]
    for context, user in zip(contexts, (ana, bia), strict=True):
        sign_in(context, live_daphne, user)
    first, second = (context.new_page() for context in contexts)

    second.goto(f"{live_daphne.url}/rooms/")
    expect(second.locator("[data-no-rooms]")).to_be_visible()

    # Ana quick-joins: nothing waits, so a room opens with her as chief.
    first.goto(f"{live_daphne.url}/rooms/")
    first.select_option(".quick-join select[name=variant]", "mineiro")
    first.select_option(".quick-join select[name=table]", "2")
    first.click("[data-action=quick-join]")
    expect(first.locator("#room-seats [data-seat-user=Rapida]")).to_be_visible()

    # Bia's lobby shows it without a reload; one click seats her and the match starts for both.
    entry = second.locator(".room-entry", has_text="Rapida")
    expect(entry).to_contain_text("Mineiro")
    expect(entry).to_contain_text("1/2")
    entry.locator("[data-action=join-room]").click()
    for page in (first, second):
        expect(page).to_have_url(re.compile(r"/play/m/[A-Za-z0-9_-]+/$"), timeout=10000)
        expect(page.locator("#hand .card")).to_have_count(3)
    assert first.url == second.url
    for context in contexts:
        context.close()
