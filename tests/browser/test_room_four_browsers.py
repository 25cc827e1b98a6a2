"""Four real Chromium contexts, four accounts (issues 11 and 12): one creates a private room for 2 against 2
and sets a stake of 20 coins in the chief's options panel, the three others join by the invite link and its
password, the match starts by itself, they play it to the end through the table's buttons, each result panel
and each wallet page shows the room reward (50 coins won, 10 lost) and the pot less the house's 25 % with the
winners (80 → 30 each, 20 to the house), and then everyone says yes to "Play again" and all four land at the
new table, their stakes held again.

The match is played honestly through the UI, only quickly: the winning team raises whenever it may, the
other team raises back once and then runs (as tests.support.matches.win_match_for does through the
service), so each hand is worth 6 and two hands end it."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Match
from rooms.models import Room
from shop import wallet
from tests.support.browser import SOCKETS_JS, play_quick_turn, sign_in, wait_until_live
from tests.support.live_server import LiveDaphne
from tests.support.stakes import house_coins, set_coins

pytestmark = pytest.mark.browser

PASSWORD = "truco4x4"
STAKE = 20


@pytest.fixture
def daphne_behind_a_proxy(transactional_db, django_db_blocker, settings):
    """A real daphne that trusts one proxy in front of it, as a deployment behind a reverse proxy:
    each browser below sends its own X-Forwarded-For, so the four people are four addresses (from one
    machine they would share 127.0.0.1, and the same-address rule would rightly withhold rank points)."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    server = LiveDaphne(django_db_blocker).start()
    yield server
    server.stop()


def test_four_people_play_a_private_room_to_the_end_are_paid_and_play_again(daphne_behind_a_proxy, browser, make_user):
    live_daphne = daphne_behind_a_proxy
    names = ("Anfitria", "Bento", "Cacau", "Duda")
    people = [make_user(name) for name in names]
    for person in people:
        set_coins(person, 100)
    house_before = house_coins()
    coins_before = [wallet.balance(p, currency=wallet.COINS) for p in people]
    blue_before = [wallet.balance(p, currency=wallet.BLUE_COINS) for p in people]
    contexts = [
        browser.new_context(locale="en", extra_http_headers={"X-Forwarded-For": f"198.51.100.{n + 10}"})
        for n in range(len(people))
    ]
    for context, user in zip(contexts, people, strict=True):
        context.add_init_script(SOCKETS_JS)
        sign_in(context, live_daphne, user)
    pages = [context.new_page() for context in contexts]
    host = pages[0]

    # The chief creates a private room, 2 against 2, and copies the invite link.
    host.goto(f"{live_daphne.url}/rooms/new/")
    host.select_option("select[name=visibility]", "private")
    host.fill("input[name=name]", "Mesa de quatro")
    host.fill("input[name=password]", PASSWORD)
    host.select_option("select[name=table]", "4t")
    host.click("[data-action=create-room]")
    expect(host.locator("#room-seats [data-seat-user=Anfitria] [data-chief]")).to_be_visible()
    invite = host.locator("[data-invite-link]").input_value()
    wait_until_live(host)  # the room's socket redraws its panel on connect: open the options after that
    host.click("[data-action=open-options]")
    host.fill("[data-option=stake]", str(STAKE))
    host.click("[data-action=save-options]")
    expect(host.locator("[data-room-options]")).to_contain_text(f"stake {STAKE} coins")

    # The three others follow the link with the password; the chief sees each arrive, live.
    for n, page in enumerate(pages[1:], start=1):
        page.goto(invite)
        page.fill("input[name=password]", PASSWORD)
        page.click("[data-action=join-room]")
        if n < 3:
            expect(host.locator(f"#room-seats [data-seat-user={names[n]}]")).to_be_visible()

    # The fourth seat taken starts the match: every browser is at the table without a reload.
    for page in pages:
        expect(page).to_have_url(re.compile(r"/play/m/[A-Za-z0-9_-]+/$"), timeout=15000)
        expect(page.locator("#hand .card")).to_have_count(3)
    room = Room.objects.get()
    match = room.match
    assert {page.url for page in pages} == {f"{live_daphne.url}/play/m/{match.public_id}/"}
    # Seats in order of arrival: Anfitria 0 and Cacau 2 are one team (the winners here), Bento 1 and Duda 3.
    winners = {seat.user_id for seat in match.seats.all() if seat.number % 2 == 0}
    assert winners == {people[0].pk, people[2].pk}
    assert sorted(s.ip_address for s in match.seats.all()) == [f"198.51.100.{n + 10}" for n in range(4)]
    side = {page: person.pk in winners for page, person in zip(pages, people, strict=True)}

    for _ in range(200):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        if not play_quick_turn(side):
            host.wait_for_timeout(100)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.score[0] >= 12 and match.rewards_credited
    assert match.stake_coins == STAKE and match.stakes_settled
    # The pot (4 × 20) less the house's 25 %: 30 to each winner, 20 to the house.
    assert house_coins() - house_before == 20

    # Each result panel says what the room paid (the wallets are checked below).
    for page, person in zip(pages, people, strict=True):
        coins, points = (50, 5) if person.pk in winners else (10, 2)
        rewards = page.locator("#status [data-rewards]")
        expect(rewards).to_have_attribute("data-reward-coins", str(coins), timeout=10000)
        expect(rewards).to_have_attribute("data-reward-rank-points", str(points))

    # Play again (within the 60 s): everyone says yes on the live page; the last yes sends all four to the new table.
    for page in pages:
        page.click("#status [data-action=play-again-room]")
        expect(page.locator("[data-again-page]")).to_be_visible()
    for n, page in enumerate(pages[:-1]):
        page.click("[data-action=accept-play-again]")
        expect(page.locator("[data-again-waiting]")).to_be_visible()
        expect(pages[-1].locator("[data-again-count]")).to_contain_text(f"{n + 1} of 4 said yes.")
    pages[-1].click("[data-action=accept-play-again]")
    expect(pages[-1]).not_to_have_url(re.compile(r"/rooms/again/"), timeout=15000)
    new_match = Room.objects.exclude(pk=room.pk).get().match
    for page in pages:
        expect(page).to_have_url(f"{live_daphne.url}/play/m/{new_match.public_id}/", timeout=15000)
        expect(page.locator("#hand .card")).to_have_count(3)
    assert [wallet.balance(p, currency=wallet.BLUE_COINS) for p in people] == [b - 2 for b in blue_before]
    # Each wallet page shows the room's reward for the first match, once.
    for page, person in zip(pages, people, strict=True):
        coins = 50 if person.pk in winners else 10
        page.goto(f"{live_daphne.url}/shop/wallet/")
        entry = page.locator("tr[data-reason=match_reward][data-currency=coins]")
        expect(entry).to_have_count(1)
        expect(entry.locator(".amount")).to_contain_text(f"+{coins}")
        # Both matches held the stake; the first one's pot paid the winners.
        expect(page.locator("tr[data-reason=stake_held][data-currency=coins] .amount")).to_contain_text(
            [f"-{STAKE}", f"-{STAKE}"]
        )
        won = page.locator("tr[data-reason=stake_won][data-currency=coins] .amount")
        if person.pk in winners:
            expect(won).to_contain_text(["+30"])
        else:
            expect(won).to_have_count(0)
    for person, before in zip(people, coins_before, strict=True):
        # Achievements a first match may also earn are paid by stats, with their own ledger lines.
        paid = 50 + 30 if person.pk in winners else 10
        assert wallet.balance(person, currency=wallet.COINS) - before >= paid - 2 * STAKE
    for context in contexts:
        context.close()
