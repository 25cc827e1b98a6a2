"""A real Chromium plays a match at the live table, then opens its statistics, the leaderboard,
the achievement the match earned, and the match's replay (stepped with the arrow keys)."""

import re

import pytest
from playwright.sync_api import Page, expect

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match
from stats.models import PlayerStats
from tests.support.browser import sign_in

pytestmark = pytest.mark.browser


def test_play_then_statistics_leaderboard_achievement_and_replay(
    fast_ai, live_daphne, stocked_achievements, page: Page, make_user
):
    user = make_user("Estatistica")
    # She has played Mineiro before: this Paulista match earns "Both schools" whatever its result.
    PlayerStats.objects.create(
        user=user,
        counters={"played": 1, "lost": 1, "variant:mineiro:played": 1, "mode:ai:played": 1, "seats:2:played": 1},
    )
    # 11 to 11: one iron hand decides the match, so the browser plays a whole match quickly.
    rules = engine.RuleSet(variant="paulista", seats=2)
    match = create_match(
        rules=rules, seats=seat_plans_against_ai(rules, "easy", user=user), bot_level="easy", score=[11, 11]
    )
    sign_in(page.context, live_daphne, user)
    page.goto(f"{live_daphne.url}/play/m/{match.public_id}/", wait_until="domcontentloaded")
    for _ in range(50):
        if page.locator("[data-match-result]").count():
            break
        card = page.locator("#hand [data-card]").first
        if card.count() and card.is_visible():
            version = page.locator("#status").get_attribute("data-version")
            card.click()
            expect(page.locator("#status")).not_to_have_attribute("data-version", version, timeout=10000)
        else:
            page.wait_for_timeout(100)
    expect(page.locator("[data-match-result]")).to_be_visible()
    # The live notice of the achievement, pushed with the result.
    expect(page.locator("[data-earned-achievement=both_variants]")).to_be_visible()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED

    page.goto(f"{live_daphne.url}/stats/")
    expect(page.locator("[data-stat=played]")).to_have_text("2")
    expect(page.locator("[data-chart=points] svg")).to_be_visible()

    page.goto(f"{live_daphne.url}/leaderboards/")
    me = page.locator("ol.board li.me")
    expect(me).to_have_attribute("data-player", "Estatistica")
    expect(me).to_have_attribute("data-position", "1")

    page.goto(f"{live_daphne.url}/stats/achievements/")
    expect(page.locator("[data-achievement=both_variants]")).to_have_attribute("data-state", "earned")
    expect(page.locator("[data-achievement=wins_10] [data-progress]")).to_be_visible()

    page.goto(f"{live_daphne.url}/play/history/")
    page.click("[data-action=replay]")
    expect(page).to_have_url(re.compile(rf"/play/m/{match.public_id}/replay/$"))
    expect(page.locator("[data-step='1']")).to_be_visible()
    # The keys are the page's deferred script's, which runs after the page's stylesheets: press once it has.
    page.wait_for_load_state("load")
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-replay-at]")).to_have_text("2")
    expect(page.locator("[data-step='2']")).to_be_visible()
    expect(page.locator("[data-step='1']")).to_be_hidden()
    page.click("[data-replay-go=next-hand]")  # an iron hand decides the match: one hand, so the last step
    expect(page.locator("[data-replay-at]")).to_have_text(page.locator("[data-replay]").get_attribute("data-steps"))  # type: ignore[arg-type]
    page.keyboard.press("PageUp")
    expect(page.locator("[data-replay-at]")).to_have_text("1")
    page.click("[data-replay-go=last]")
    expect(page.locator("[data-step]:visible .replay-text")).to_contain_text(
        re.compile("The match goes to|A partida fica com")
    )
