"""Real Chromium plays online Mineiro (issue 16) against the AI: chosen on the Play page and played to
its end, and a double play at the live table with the AI's hidden card face down until shown."""

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games import engine
from games.match.clock import schedule_next_turn
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match
from tests.support.browser import choose_on_the_play_page, play_until_result, sign_in
from tests.support.matches import tied_first_round

pytestmark = pytest.mark.browser


ONLINE = engine.RuleSet(variant="mineiro", mineiro_style="online")
CONTROLS = (
    "#actions [data-action=accept]",
    "#actions [data-action=play-hand]",
    "#hand [data-action=double-play]",
    "#hand [data-card]",
)


def take_a_turn(page: Page, clicked: dict) -> bool:
    """Accept raises, play hands of ten, lay the first double play offered, else play the first card."""
    for selector in CONTROLS:
        control = page.locator(selector).first
        if control.count() and control.is_visible():
            version = page.locator("#status").get_attribute("data-version")
            control.click()
            clicked[selector] = clicked.get(selector, 0) + 1
            expect(page.locator("#status")).not_to_have_attribute("data-version", version, timeout=10000)
            return True
    return False


def test_online_mineiro_chosen_on_the_play_page_is_played_to_its_end(fast_ai, live_daphne, page: Page, make_user):
    user = make_user("Mineira")
    sign_in(page.context, live_daphne, user)
    page.goto(f"{live_daphne.url}/play/")
    choose_on_the_play_page(page, variant="mineiro", mineiro_style="online", bot_level="easy")
    page.click("[data-action=start-match]")
    expect(page.locator("#status[data-version]")).to_be_visible()
    expect(page.locator("[data-mineiro-style=online]")).to_be_visible()

    clicked: dict = {}
    play_until_result(page, lambda: take_a_turn(page, clicked))
    match = Match.objects.get(seats__user=user)
    assert match.rules["mineiro_style"] == "online"
    assert match.status == Match.Status.FINISHED and max(match.score) >= 12
    # Remembered for the next match: the Play page comes back with the same style chosen.
    page.goto(f"{live_daphne.url}/play/")
    expect(page.locator("input[name=mineiro_style][value=online]")).to_be_checked()


def test_a_double_play_at_the_live_table_hides_the_ais_card_until_the_hand_ends(
    fast_ai, live_daphne, page: Page, make_user
):
    user = make_user("Dupla")
    sign_in(page.context, live_daphne, user)
    match = create_match(rules=ONLINE, seats=seat_plans_against_ai(ONLINE, "easy", user=user), bot_level="easy")
    # The first hand is fixed: K against K ties round 1, and the AI (seat 1) leads the double round.
    match = tied_first_round(match)
    schedule_next_turn(match, engine.from_json(match.state), timezone.now())
    match.save()

    page.goto(f"{live_daphne.url}/play/m/{match.public_id}/")
    # The AI lays 2H face up over 5S: the table shows a face-down card beneath, never the 5S.
    ai_play = page.locator('#trick [data-played-by="1"]')
    expect(ai_play.locator('[data-beneath="hidden"]')).to_be_visible(timeout=10000)
    expect(ai_play.locator('.card use[href$="#card-2H"]')).to_have_count(1)
    expect(ai_play.locator('[data-beneath="hidden"] .card.back')).to_be_visible()
    assert "5S" not in page.content()  # not as a code, nor as the sprite's card-5S
    # Mine: both ways to lay my two cards; I put the 3 up and the 4 beneath.
    expect(page.locator("#hand [data-action=double-play]")).to_have_count(2)
    page.click('#hand [data-action=double-play][data-up="3C"]')
    # 3C beats 2H: round 2 and the hand are mine (2 points), and the AI's hidden card was never shown.
    expect(page.locator('#scoreboard [data-score="0"]')).to_have_text("2", timeout=10000)
    assert "5S" not in page.content()

    clicked: dict = {}
    play_until_result(page, lambda: take_a_turn(page, clicked))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
