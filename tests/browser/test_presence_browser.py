"""Real Chromium, two accounts at a room's table: one closes her tab on her turn, and with every threshold
as shipped the other sees her away with a robot playing for her within 5 s, and the robot's move within
10 s (issue 28 item 8); she opens the table again and plays her own turn; then she leaves the match
through the confirmation and the other sees a robot finishing for her (issue 11 items 7-8)."""

import re
import time

import pytest
from playwright.sync_api import expect

from games import engine
from games.models import Match, MatchEvent, Seat
from shop import wallet
from tests.support.browser import sign_in, take_my_turn
from tests.support.rooms import everyone_arrived, started_room_match

pytestmark = pytest.mark.browser


@pytest.fixture
def shipped_presence(settings, fast_ai):
    """Set before `live_daphne` forks: the sweeper on, presence and the AI's delay as shipped."""
    settings.GAMES_AI_DELAY_S = (0.5, 1.5)


def test_a_closed_tab_shows_away_then_a_robot_plays_then_reopening_takes_the_seat_back_then_leaving(
    shipped_presence, live_daphne, browser, make_user
):
    ana, bia = make_user("Sumida"), make_user("Fiel")
    for user in (ana, bia):
        wallet.change_balance(user, currency=wallet.BLUE_COINS, amount=5, reason="admin_adjustment")
    match = started_room_match([ana, bia], arrived=False)  # nobody is away while the pages open
    ana_seat = Seat.objects.get(match=match, user=ana).number
    url = f"{live_daphne.url}/play/m/{match.public_id}/"
    contexts = [browser.new_context(locale="en") for _ in range(2)]
    for context, user in zip(contexts, (ana, bia), strict=True):
        sign_in(context, live_daphne, user)
    ana_page, bia_page = (context.new_page() for context in contexts)
    for page in (ana_page, bia_page):
        page.goto(url)
        expect(page.locator("#hand .card")).to_have_count(3)
    her_seat = bia_page.locator(f"#seats [data-seat='{ana_seat}'] [data-presence]")
    expect(her_seat).to_have_attribute("data-presence", "person")
    everyone_arrived(match)

    # Bia plays until it is Ana's turn; then Ana's tab closes.
    for _ in range(60):
        match.refresh_from_db()
        if ana_seat in engine.seats_to_act(engine.from_json(match.state)):
            break
        if not take_my_turn(bia_page):
            bia_page.wait_for_timeout(100)
    ana_page.close()
    closed = time.monotonic()
    # Bia sees her away with a robot playing for her, and the robot plays Ana's turn at the AI's speed.
    expect(her_seat).to_have_attribute("data-presence", "robot", timeout=5000)
    away_after = time.monotonic() - closed
    expect(her_seat).to_have_text("away · robot playing")
    expect(bia_page.locator(f"#status [data-robot-playing='{ana_seat}']")).to_have_text("Robot playing for Sumida")
    while not MatchEvent.objects.filter(match=match, actor="robot", seat=ana_seat).exists():
        assert time.monotonic() - closed <= 10, "no robot move within 10 s of the close"
        bia_page.wait_for_timeout(50)
    print(f"away seen {away_after:.1f} s after the close, the robot's move {time.monotonic() - closed:.1f} s after")
    assert not MatchEvent.objects.filter(match=match, actor="clock").exists()

    # Ana comes back (a new tab): the current table, and the seat is hers from the next action.
    ana_page = contexts[0].new_page()
    ana_page.goto(url)
    expect(ana_page.locator("#status[data-version]")).to_be_visible()
    expect(her_seat).to_have_attribute("data-presence", "person", timeout=10000)
    expect(bia_page.locator("#status [data-robot-playing]")).to_have_count(0)
    match.refresh_from_db()
    assert match.robot_seats == [] and match.away_since == {}
    for _ in range(60):
        if MatchEvent.objects.filter(match=match, actor="player", seat=ana_seat, version__gt=match.version).exists():
            break
        if not (take_my_turn(ana_page) or take_my_turn(bia_page)):
            ana_page.wait_for_timeout(100)
    assert MatchEvent.objects.filter(match=match, actor="player", seat=ana_seat, version__gt=match.version).exists()

    # Leaving asks first; confirmed, Ana is in the lobby and a robot finishes the match for her.
    ana_page.click("[data-action=leave-match]")
    expect(ana_page.locator("[data-leave-match] form")).to_contain_text("A robot plays your seat to the end")
    ana_page.click("[data-action=confirm-leave]")
    expect(ana_page).to_have_url(re.compile(r"/rooms/$"))
    expect(ana_page.locator(".messages")).to_contain_text("You left the match.")
    expect(her_seat).to_have_attribute("data-presence", "left", timeout=10000)
    expect(bia_page.locator(f"#status [data-robot-playing='{ana_seat}']")).to_be_visible()
    assert Seat.objects.get(match=match, user=ana).left_at is not None
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and engine.from_json(match.state) is not None
    for context in contexts:
        context.close()
