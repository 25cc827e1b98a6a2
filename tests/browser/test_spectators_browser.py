"""Real Chromium: a signed-in stranger finds a 2-against-2 room match in the lobby, watches it (the players
see the count go up), chats with the table; a partner signal reaches the partner's browser and nobody else's."""

import re

import pytest
from playwright.sync_api import expect

from rooms import services
from rooms.models import ChatLine, ChatMute, Room
from tests.support.browser import sign_in
from tests.support.rooms import options

pytestmark = pytest.mark.browser


def test_a_spectator_watches_and_chats_and_a_partner_signal_reaches_only_the_partner(live_daphne, browser, make_user):
    ana, bia, caio, dani, watcher = (make_user(n) for n in ("Ana", "Bia", "Caio", "Dani", "Watcher"))
    room = services.create_room(ana, options(seats=4, partnership=True))
    Room.objects.filter(pk=room.pk).update(allow_spectators=True, partner_signals=True)
    for person in (bia, caio, dani):
        services.join_room(person, room.code)
    room.refresh_from_db()
    seats = {s.user_id: s.number for s in room.match.seats.all()}
    partner = next(u for u in (bia, caio, dani) if seats[u.pk] == (seats[ana.pk] + 2) % 4)
    opponent = next(u for u in (bia, caio, dani) if seats[u.pk] % 2 != seats[ana.pk] % 2)
    table_url = f"{live_daphne.url}/play/m/{room.match.public_id}/"

    pages = {}
    for user in (ana, partner, opponent):
        context = browser.new_context(locale="en")
        sign_in(context, live_daphne, user)
        pages[user.pk] = page = context.new_page()
        page.goto(table_url)
        expect(page.locator("#status")).to_have_attribute("data-version", re.compile(r"\d+"))
        expect(page.locator("#spectators")).to_have_attribute("data-spectators", "0")
    ana_page, partner_page, opponent_page = pages[ana.pk], pages[partner.pk], pages[opponent.pk]

    # The stranger finds the match in the lobby and watches it; the players see the count, live.
    context = browser.new_context(locale="pt-BR")
    sign_in(context, live_daphne, watcher)
    watching = context.new_page()
    watching.goto(f"{live_daphne.url}/rooms/")
    watching.locator(f'[data-watch-room="{room.code}"] [data-action=watch]').click()
    expect(watching).to_have_url(table_url)
    expect(watching.locator(".watching-badge")).to_have_text("Você está assistindo")
    expect(watching.locator("#hand [data-card]")).to_have_count(0)
    for page in pages.values():
        expect(page.locator("#spectators")).to_have_attribute("data-spectators", "1")
        expect(page.locator("#spectators")).to_contain_text("1 watching")

    # The spectator chats: the players read the line, marked as a spectator's; the chief can mute.
    expect(watching.locator("#chat-panel[data-chat=on]")).to_be_visible()
    watching.fill("#chat-text", "boa sorte, <i>pessoal</i>")
    watching.click("[data-action=chat-send]")
    for page in pages.values():
        line = page.locator("#chat-lines .chat-line").last
        expect(line.locator(".chat-text")).to_have_text("boa sorte, <i>pessoal</i>")
        expect(line.locator("[data-spectator-line]")).to_be_visible()
    expect(ana_page.locator("#chat-lines .chat-line").last.locator("[data-action=mute-spectator]")).to_be_visible()
    expect(opponent_page.locator("[data-action=mute-spectator]")).to_have_count(0)
    assert ChatLine.objects.get().by_spectator

    # Ana mutes the spectator: her list of muted spectators shows them at once, and its button lets
    # them write again (their lines no longer show, so the list is the only way back).
    ana_page.locator("#chat-lines .chat-line").last.locator("[data-action=mute-spectator]").click()
    expect(ana_page.locator("#chat-message")).to_contain_text("Muted")
    expect(ana_page.locator("[data-muted-spectator]")).to_contain_text(watcher.username)
    expect(opponent_page.locator("[data-muted-spectator]")).to_have_count(0)
    ana_page.click("[data-action=unmute-spectator]")
    expect(ana_page.locator("#chat-message")).to_contain_text("may write again")
    expect(ana_page.locator("[data-muted-spectator]")).to_have_count(0)
    assert not ChatMute.objects.exists()

    # Ana signals "zap": her partner's browser shows it; the opponent's and the spectator's do not.
    ana_page.click("[data-signal-button=zap]")
    expect(partner_page.locator("[data-partner-signal]")).to_have_attribute("data-partner-signal", "zap")
    expect(partner_page.locator("#signals")).to_contain_text("Your partner signals: Zap")
    expect(ana_page.locator("[data-signal-button=zap]")).to_have_attribute("aria-pressed", "true")
    ana_page.wait_for_timeout(500)  # time for a wrong push to arrive, had there been one
    expect(opponent_page.locator("[data-partner-signal]")).to_have_count(0)
    expect(opponent_page.locator("[aria-pressed=true]")).to_have_count(0)
    expect(watching.locator("#signals [data-signal-button]")).to_have_count(0)
    expect(watching.locator("[data-partner-signal]")).to_have_count(0)

    # A spectator who tries to act is told plainly (a script sending a frame over the table's socket).
    script = """(publicId) => new Promise((done) => {
        const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws/match/' + publicId + '/');
        ws.onmessage = (e) => { if (e.data.includes('data-error')) { window.refused = e.data; done(); } };
        ws.onopen = () => ws.send(JSON.stringify({do: 'signal', signal: 'zap'}));
    })"""
    watching.evaluate(script, room.match.public_id)
    assert 'data-error="spectator"' in watching.evaluate("window.refused")

    # The spectator leaves: the count goes back down.
    watching.close()
    expect(ana_page.locator("#spectators")).to_have_attribute("data-spectators", "0")
