"""Two real Chromium contexts and a table with a stake (issue 12): the chief sets the stake in the options
panel; someone who cannot cover it is refused with the shop's link; the match is played to the end through
the table's buttons and the winner's wallet page shows the pot less the house's 25 %; between matches the
chief changes the stake while the other sees the options icon "being changed", live; they play again, and
at the new table one annulment vote is refused (the match goes on) and one accepted (the stakes go back)."""

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from rooms.models import Room
from shop import wallet
from tests.support.browser import SOCKETS_JS, play_quick_turn, sign_in, wait_until_live
from tests.support.stakes import house_coins, set_coins

pytestmark = pytest.mark.browser


def wallet_lines(page: Page, server, reason: str):
    page.goto(f"{server.url}/shop/wallet/")
    return page.locator(f"tr[data-reason={reason}][data-currency=coins] .amount")


def test_a_stake_is_won_less_the_house_cut_changed_between_matches_and_annulled_by_vote(
    live_daphne, browser, make_user
):
    ana, bia = make_user("Anfitria"), make_user("Convidada")
    set_coins(ana, 500)
    set_coins(bia, 99)
    house_before = house_coins()
    contexts = [browser.new_context(locale="en") for _ in range(2)]
    for context, user in zip(contexts, (ana, bia), strict=True):
        context.add_init_script(SOCKETS_JS)
        sign_in(context, live_daphne, user)
    host, guest = (context.new_page() for context in contexts)

    # Ana opens a public room for two and sets a stake of 100 coins in the options panel.
    host.goto(f"{live_daphne.url}/rooms/new/")
    host.select_option("select[name=table]", "2")
    host.click("[data-action=create-room]")
    expect(host.locator("[data-action=open-options]")).to_be_visible()
    wait_until_live(host)  # the room's socket redraws its panel on connect: open the options after that
    host.click("[data-action=open-options]")
    host.fill("[data-option=stake]", "100")
    host.click("[data-action=save-options]")
    expect(host.locator("[data-room-options]")).to_contain_text("stake 100 coins")
    room_url = host.url

    # Bia has 99 coins: she cannot sit, and is told why with the way to the shop.
    guest.goto(room_url)
    guest.click("[data-action=join-room]")
    expect(guest.locator(".messages")).to_contain_text("This table plays for a stake of 100 coins and you have 99.")
    expect(guest.locator(".messages [data-nav=shop-coins]")).to_be_visible()
    set_coins(bia, 300)
    guest.click("[data-action=join-room]")
    for page in (host, guest):
        expect(page).to_have_url(re.compile(r"/play/m/[A-Za-z0-9_-]+/$"), timeout=15000)
    match = Room.objects.get().match
    assert match.stake_coins == 100
    assert (wallet.balance(ana, currency=wallet.COINS), wallet.balance(bia, currency=wallet.COINS)) == (400, 200)

    # Played to the end through the buttons: Ana's side wins.
    side = {host: match.seats.get(number=0).user_id == ana.pk, guest: match.seats.get(number=0).user_id == bia.pk}
    for _ in range(200):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        if not play_quick_turn(side):
            host.wait_for_timeout(100)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.stakes_settled
    assert house_coins() - house_before == 50

    # Between matches (the play-again page): Ana opens the options; Bia sees the icon "being changed", live.
    for page in (host, guest):
        page.click("#status [data-action=play-again-room]")
        expect(page.locator("[data-again-page]")).to_be_visible()
    expect(guest.locator("[data-options-icon]")).to_have_attribute("data-options-icon", "still")
    wait_until_live(host)
    host.click("[data-action=open-options]")
    expect(guest.locator("[data-options-icon]")).to_have_attribute("data-options-icon", "changing", timeout=10000)
    host.fill("[data-option=stake]", "60")
    host.click("[data-action=save-options]")
    expect(guest.locator("[data-options-icon]")).to_have_attribute("data-options-icon", "still", timeout=10000)
    expect(guest.locator("[data-room-options]")).to_contain_text("stake 60 coins")

    # Both play again: the new match holds 60 from each.
    host.click("[data-action=accept-play-again]")
    expect(host.locator("[data-again-waiting]")).to_be_visible()
    guest.click("[data-action=accept-play-again]")
    expect(guest).not_to_have_url(re.compile(r"/rooms/again/"), timeout=15000)
    new_room = Room.objects.exclude(pk=match.room.pk).get()
    for page in (host, guest):
        expect(page).to_have_url(f"{live_daphne.url}/play/m/{new_room.match.public_id}/", timeout=15000)
    assert new_room.match.stake_coins == 60

    # Ana proposes to annul; Bia sees the vote live and wants to keep playing: the match goes on.
    host.click("[data-action=annul-propose]")
    expect(guest.locator("#annul-vote")).to_have_attribute("data-annul", "open", timeout=10000)
    expect(guest.locator("[data-annul-open]")).to_contain_text("Anfitria proposes to annul the match.")
    guest.click("[data-action=annul-no]")
    for page in (host, guest):
        expect(page.locator("[data-annul-result=refused]")).to_contain_text("Convidada wants to keep playing")
    expect(host.locator("[data-annul-cooldown]")).to_be_visible()
    assert Match.objects.get(pk=new_room.match_id).status == Match.Status.ACTIVE

    # Bia proposes; Ana agrees: the match is annulled for both, and the stakes go back.
    guest.click("[data-action=annul-propose]")
    host.click("[data-action=annul-yes]")
    for page in (host, guest):
        expect(page.locator("#status [data-match-result=annulled]")).to_be_visible(timeout=10000)
    assert Match.objects.get(pk=new_room.match_id).status == Match.Status.ANNULLED

    # The wallet pages: Ana won 150 (the pot of 200 less the house's 50); each got the 60 back.
    won = wallet_lines(host, live_daphne, "stake_won")
    expect(won).to_have_count(1)
    expect(won).to_contain_text(["+150"])
    held = host.locator("tr[data-reason=stake_held][data-currency=coins] .amount")
    expect(held).to_have_count(2)
    expect(held).to_contain_text(["-60", "-100"])
    expect(host.locator("tr[data-reason=stake_returned][data-currency=coins] .amount")).to_contain_text(["+60"])
    expect(wallet_lines(guest, live_daphne, "stake_won")).to_have_count(0)
    returned = guest.locator("tr[data-reason=stake_returned][data-currency=coins] .amount")
    expect(returned).to_have_count(1)
    expect(returned).to_contain_text(["+60"])
    assert house_coins() - house_before == 50
    for context in contexts:
        context.close()
