"""A real Chromium plays against the AI through the live table: a whole match, and a reload mid-hand."""

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from shop import wallet
from stats.services import rank_points
from tests.support.browser import choose_on_the_play_page, play_until_result, sign_in
from tests.support.rewards import coins_without_achievements

pytestmark = pytest.mark.browser


def start_match(page: Page, server, **choices):
    page.goto(f"{server.url}/play/")
    choose_on_the_play_page(page, **choices)
    page.click("[data-action=start-match]")
    expect(page.locator("#status[data-version]")).to_be_visible()


def take_a_turn(page: Page) -> bool:
    """Click what a cautious player would: accept a raise, play a hand of eleven, else play the first card."""
    for selector in ("#actions [data-action=accept]", "#actions [data-action=play-hand]", "#hand [data-card]"):
        control = page.locator(selector).first
        if control.count() and control.is_visible():
            version = page.locator("#status").get_attribute("data-version")
            control.click()
            # Wait for the table to move on (our move applied, or refused and refreshed).
            expect(page.locator("#status")).not_to_have_attribute("data-version", version, timeout=10000)
            return True
    return False


def wait_for_a_card_to_play(page: Page) -> None:
    """Answer what the AI asks (its trucos, a hand of eleven) until one of our cards is playable."""
    for _ in range(200):
        if page.locator("#hand [data-card]").count():
            return
        answer = page.locator("#actions [data-action=accept], #actions [data-action=play-hand]").first
        if not (answer.count() and answer.is_visible() and take_a_turn(page)):
            page.wait_for_timeout(100)
    expect(page.locator("#hand [data-card]").first).to_be_visible()


def test_a_new_player_plays_a_whole_match_and_gets_the_rewards(fast_ai, live_daphne, page: Page, make_user):
    user = make_user("Jogadora")
    coins_before = wallet.balance(user, currency=wallet.COINS)
    sign_in(page.context, live_daphne, user)
    start_match(page, live_daphne, bot_level="easy")
    expect(page.locator("#trick [data-vira]")).to_be_visible()

    play_until_result(page, lambda: take_a_turn(page), attempts=400)
    result = page.locator("[data-match-result]")

    match = Match.objects.get(seats__user=user)
    assert match.status == Match.Status.FINISHED
    won = result.get_attribute("data-match-result") == "won"
    assert won == (match.winner_side == 0)
    coins, points = (15, 3) if won else (2, 1)
    expect(page.locator("[data-rewards]")).to_contain_text(f"+{coins}")
    assert coins_without_achievements(user) == coins_before + coins  # achievements pay apart (stats)
    assert rank_points(user) == points
    expect(page.locator("[data-action=play-again]")).to_be_visible()


def test_reload_mid_hand_brings_back_the_same_table_and_play_goes_on(fast_ai, live_daphne, page: Page, make_user):
    user = make_user("Recarrega")
    sign_in(page.context, live_daphne, user)
    start_match(page, live_daphne, seats="4", bot_level="easy")
    wait_for_a_card_to_play(page)
    assert take_a_turn(page)
    wait_for_a_card_to_play(page)  # our turn again, mid-hand
    cards_before = page.locator("#hand .card-button").count()
    version_before = int(page.locator("#status").get_attribute("data-version"))  # type: ignore[arg-type]

    page.reload()
    expect(page.locator("#hand .card-button")).to_have_count(cards_before)
    assert int(page.locator("#status").get_attribute("data-version")) == version_before  # type: ignore[arg-type]
    assert take_a_turn(page)
    match = Match.objects.get(seats__user=user)
    assert match.version > version_before


def test_guest_sees_the_table_in_portuguese_by_default(fast_ai, live_daphne, browser):
    context = browser.new_context(locale="pt-BR")
    page = context.new_page()
    start_match(page, live_daphne)
    expect(page.locator("#status")).to_contain_text(re.compile("Sua vez|Aguardando"))
    context.close()


def test_the_easy_ai_calls_truco_and_the_beginner_answers_it(fast_ai, live_daphne, page: Page, make_user):
    # Easy calls two or three trucos a 4-seat match (docs/engine.md): three matches leave about a
    # 1-in-1,000 chance of never being asked.
    sign_in(page.context, live_daphne, make_user("Iniciante"))
    start_match(page, live_daphne, seats="4", bot_level="easy")
    accept, matches = page.locator("#actions [data-action=accept]"), 1
    for _ in range(1200):
        if accept.count() and accept.is_visible():
            break
        if page.locator("[data-match-result]").count():
            if matches == 3:
                break
            start_match(page, live_daphne, seats="4", bot_level="easy")
            matches += 1
        elif not take_a_turn(page):
            page.wait_for_timeout(100)
    expect(accept).to_be_visible()
    expect(page.locator("#actions [data-action=run]")).to_be_visible()
    assert take_a_turn(page)  # accepts; the hand goes on at the raised stake
