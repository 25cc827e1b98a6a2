"""The table chat in real Chromium: two people at a room's table write, use a quick phrase, report a line and
turn their chat off; what one writes appears in the other's browser without a reload, escaped."""

import re

import pytest
from playwright.sync_api import expect

from rooms import services
from rooms.models import ChatLine, ChatReport
from tests.support.browser import sign_in
from tests.support.rooms import options

pytestmark = pytest.mark.browser


def test_two_people_chat_at_a_room_table(live_daphne, browser, make_user):
    ana, bia = make_user("Ana"), make_user("Bia")
    room = services.create_room(ana, options(seats=2))
    services.join_room(bia, room.code)
    room.refresh_from_db()
    pages = []
    for user, locale in ((ana, "en"), (bia, "pt-BR")):
        context = browser.new_context(locale=locale)
        sign_in(context, live_daphne, user)
        page = context.new_page()
        page.goto(f"{live_daphne.url}/play/m/{room.match.public_id}/")
        expect(page.locator("#chat-panel[data-chat=on]")).to_be_visible()
        pages.append(page)
    ana_page, bia_page = pages

    # Ana writes (HTML included): Bia reads it escaped, live; Ana's input is emptied.
    ana_page.fill("#chat-text", "<b>bom jogo</b>")
    ana_page.click("[data-action=chat-send]")
    expect(bia_page.locator("#chat-lines .chat-text").last).to_have_text("<b>bom jogo</b>")
    expect(bia_page.locator("#chat-lines b")).to_have_count(0)
    expect(ana_page.locator("#chat-text")).to_have_value("")

    # A quick phrase reads in each one's language.
    bia_page.click("[data-phrase=nice]")
    expect(bia_page.locator("#chat-lines .chat-text").last).to_have_text("Boa!")
    expect(ana_page.locator("#chat-lines .chat-text").last).to_have_text("Nice one!")

    # Bia reports Ana's line; she is thanked, and staff have the report.
    bia_page.locator("#chat-lines [data-action=report-line]").first.click()
    expect(bia_page.locator("#chat-message")).to_contain_text("Obrigado")
    assert ChatReport.objects.get().line.text == "<b>bom jogo</b>"

    # Bia turns her chat off: the panel says so, and Ana's next line does not reach her.
    bia_page.click("[data-action=chat-off]")
    expect(bia_page.locator("#chat-panel[data-chat=off]")).to_be_visible()
    ana_page.fill("#chat-text", "ainda aí?")
    ana_page.click("[data-action=chat-send]")
    expect(ana_page.locator("#chat-lines .chat-text").last).to_have_text("ainda aí?")
    expect(bia_page.locator("#chat-panel")).not_to_contain_text("ainda aí?")
    assert ChatLine.objects.count() == 3
    # Ana's table still works: the chat lives beside it, not instead of it.
    expect(ana_page.locator("#status")).to_have_attribute("data-version", re.compile(r"\d+"))
