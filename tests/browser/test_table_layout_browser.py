"""The live table in real Chromium at 390×844 and 1280×800: in every state (your turn, a raise to
answer, a hand of eleven, the result) every control you need is inside the screen, with the hooks
and the screen-reader announcement that state calls for (tests/support/hooks.py, DUEL).

With SCREENSHOTS_DIR set (`make screenshots`) it also saves each state at each size.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from tests.support.browser import LANDSCAPE, SIZES, open_page, settles_on_screen, wait_until_live
from tests.support.hooks import DUEL
from tests.support.table_states import table_in_state

pytestmark = pytest.mark.browser

SCREENSHOTS_DIR = os.environ.get("SCREENSHOTS_DIR", "")


@pytest.fixture
def duel(transactional_db, make_user):
    return make_user("Ana"), make_user("Beto")


@pytest.mark.parametrize("size", [*SIZES, *LANDSCAPE])
@pytest.mark.parametrize("state", DUEL)
def test_every_control_of_the_table_state_is_on_screen(site_server, browser, duel, state, size):
    viewer, rival = duel
    match = table_in_state(state, viewer, rival)
    hooks = DUEL[state]
    context, page = open_page(browser, site_server, size=size, language="pt-BR", user=viewer)
    page.goto(f"{site_server.url}/play/m/{match.public_id}/")
    wait_until_live(page)  # the socket is open and its snapshot is in
    for selector in hooks.on_screen:
        controls = page.locator(selector)
        assert controls.count() >= 1, selector
        for n in range(controls.count()):
            assert settles_on_screen(page, controls.nth(n)), f"{state} at {size}: {selector} #{n} is off screen"
    for selector in hooks.absent:
        assert page.locator(selector).count() == 0, f"{state}: {selector} should not be there"
    expect(page.locator("#announce")).to_contain_text(re.compile(hooks.announced))
    if SCREENSHOTS_DIR:
        Path(SCREENSHOTS_DIR).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS_DIR}/table-{state}-{size}.png")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_at_a_table_of_four_with_signals_the_ai_partners_sign_and_the_signs_to_send_are_on_screen(
    site_server, browser, duel, size
):
    viewer, _ = duel
    rules = engine.RuleSet(variant="paulista", seats=4, partnership=True)
    plans = seat_plans_against_ai(rules, "medium", user=viewer)
    match = create_match(rules=rules, seats=plans, bot_level="medium", seed=3, partner_signals=True)
    context, page = open_page(browser, site_server, size=size, language="pt-BR", user=viewer)
    page.goto(f"{site_server.url}/play/m/{match.public_id}/")
    wait_until_live(page)
    received = page.locator("[data-partner-signal]")
    expect(received).to_have_attribute("data-partner-signal", match.signals["2"]["signal"])
    assert settles_on_screen(page, received), f"the partner's sign is off screen at {size}"
    for n in range(page.locator("[data-signal-button]").count()):
        button = page.locator("[data-signal-button]").nth(n)
        assert settles_on_screen(page, button), f"signal button #{n} is off screen at {size}"
    if SCREENSHOTS_DIR:
        Path(SCREENSHOTS_DIR).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS_DIR}/table-signals-4-{size}.png")
    context.close()
