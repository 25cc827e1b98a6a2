"""Two real Chromium contexts (issue 30 item 6): the chief removes a player from the waiting room and that
player's browser lands in the lobby told why, with the blue coin the refund gave back; back in the room, the
chief closes it and both are told. A made-up lobby address shows nothing.

With SCREENSHOTS_DIR set it also saves the removed player's lobby at 390×844 and 1280×800 (pt-BR).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from rooms import services
from shop import wallet
from shop.models import LedgerEntry
from tests.support.browser import inside_viewport, open_page
from tests.support.rooms import options

pytestmark = pytest.mark.browser

SCREENSHOTS_DIR = os.environ.get("SCREENSHOTS_DIR", "")


def blue(user) -> int:
    return wallet.balance(user, currency=wallet.BLUE_COINS)


def test_a_removed_player_is_told_why_with_the_blue_coin_back_and_so_is_everyone_when_the_room_closes(
    live_daphne, browser, make_user
):
    ana, bia = make_user("Chefa"), make_user("Removida")
    blue_before = blue(bia)
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    host_context, host = open_page(browser, live_daphne, size="desktop", language="en", user=ana)
    guest_context, guest = open_page(browser, live_daphne, size="phone", language="pt-BR", user=bia)
    host.on("dialog", lambda dialog: dialog.accept())  # the buttons ask "are you sure?"
    room_url = f"{live_daphne.url}/rooms/r/{room.code}/"
    for page in (host, guest):
        page.goto(room_url)
        expect(page.locator("#room-seats [data-seat-user=Removida]")).to_be_visible()

    # The chief removes Bia: her page, which did nothing, is taken to the lobby and told why.
    host.click("[data-seat-user=Removida] [data-action=remove-player]")
    expect(guest).to_have_url(f"{live_daphne.url}/rooms/?out_of={room.code}", timeout=10000)
    told = guest.locator("[data-room-notice=removed]")
    expect(told).to_contain_text("O chefe tirou você da sala pública (Paulista · 2 contra 2).")
    expect(told).to_contain_text("Você recebeu de volta 1 moeda azul.")
    refund = LedgerEntry.objects.get(wallet__user=bia, reason="room_refund")
    assert told.get_attribute("data-refunded") == str(refund.amount) == "1" and blue(bia) == blue_before
    assert inside_viewport(guest, told)
    expect(guest.locator("header [data-header-balance=blue_coins]")).to_contain_text(str(blue_before))
    if SCREENSHOTS_DIR:
        Path(SCREENSHOTS_DIR).mkdir(parents=True, exist_ok=True)
        guest.screenshot(path=f"{SCREENSHOTS_DIR}/rooms-removed-phone.png")
        wide_context, wide = open_page(browser, live_daphne, size="desktop", language="pt-BR", user=bia)
        wide.goto(guest.url)
        expect(wide.locator("[data-room-notice=removed]")).to_be_visible()
        wide.screenshot(path=f"{SCREENSHOTS_DIR}/rooms-removed-desktop.png")
        wide_context.close()

    # Back in the room, the chief closes it: both are told, the chief in her own words.
    guest.goto(room_url)
    guest.click("[data-action=join-room]")
    expect(guest.locator("#room-seats [data-seat-user=Removida]")).to_be_visible()
    host.reload()
    expect(host.locator("#room-seats [data-seat-user=Removida]")).to_be_visible()
    host.click("[data-action=close-room]")
    expect(host).to_have_url(f"{live_daphne.url}/rooms/?out_of={room.code}", timeout=10000)
    expect(host.locator("[data-room-notice=closed]")).to_contain_text(
        "You closed the public room (Paulista · 2 against 2). You got your 1 blue coin back."
    )
    expect(guest).to_have_url(f"{live_daphne.url}/rooms/?out_of={room.code}", timeout=10000)
    expect(guest.locator("[data-room-notice=closed]")).to_contain_text(
        "O chefe fechou a sala pública (Paulista · 2 contra 2)."
    )
    expect(guest.locator("[data-room-notice=closed]")).to_contain_text("Você recebeu de volta 1 moeda azul.")

    # An address made up for a room she never sat in shows nothing.
    other = services.create_room(make_user("Outra"), options(seats=2))
    guest.goto(f"{live_daphne.url}/rooms/?out_of={other.code}")
    expect(guest.locator("[data-lobby-socket]")).to_be_attached()
    expect(guest.locator("[data-room-notice]")).to_have_count(0)
    assert re.search(r"/rooms/\?out_of=", guest.url)
    host_context.close()
    guest_context.close()
