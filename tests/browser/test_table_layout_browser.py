"""The live table in real Chromium at 390×844 and 1280×800: in every state (your turn, a raise to
answer, a hand of eleven, the result) every control you need is inside the screen, with the hooks
and the screen-reader announcement that state calls for.

With SCREENSHOTS_DIR set (`make screenshots`) it also saves each state at each size.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.browser import SIZES, inside_viewport, open_page
from tests.support.table_states import table_in_state

pytestmark = pytest.mark.browser

SCREENSHOTS_DIR = os.environ.get("SCREENSHOTS_DIR", "")
CARDS = "#hand .card-button"
# What must be on screen in each state, and what must not be there at all.
CONTROLS = {
    "turn": ["#hand [data-card]", "[data-turn=me]", ".clock", "[data-action=raise]", "[data-round-in-play='1']"],
    "raise": [
        CARDS,
        "[data-pending-raise]",
        "[data-action=accept]",
        "[data-action=run]",
        "[data-action=raise]",
        "[data-turn=me]",
        ".clock",
    ],
    "eleven": [CARDS, "[data-action=play-hand]", "[data-action=refuse-hand]", "[data-turn=me]", ".clock"],
    "eleven-4": [
        CARDS,
        "[data-partner-hands]",
        "[data-action=play-hand]",
        "[data-action=refuse-hand]",
        "[data-turn=me]",
        ".clock",
    ],
    "result": ["[data-match-result]", "[data-rewards]", "[data-action=play-again]", "[data-last-hand]"],
}
ABSENT = {
    "turn": ["[data-action=accept]", "[data-action=play-hand]"],
    "raise": ["[data-action=play-hand]", "[data-action=refuse-hand]"],
    "eleven": ["[data-action=accept]", "[data-action=run]", "[data-action=raise]"],
    "eleven-4": ["[data-action=accept]", "[data-action=run]", "[data-action=raise]"],
    "result": ["#hand [data-card]", "[data-action=raise]", ".clock"],
}
ANNOUNCED = {
    "turn": "Sua vez",
    "raise": "Beto pediu Truco! (3)!",
    "eleven": "Mão de onze: jogar?",
    "eleven-4": "Mão de onze: jogar?",
    "result": "Beto ganhou a partida.",
}


def settles_on_screen(page, control, seconds: float = 3) -> bool:
    """On screen now or once the socket's snapshot has been swapped in (a layout in the middle of a
    swap is not what a person sees); a control that stays off screen fails."""
    for _ in range(int(seconds * 10)):
        if inside_viewport(page, control):
            return True
        page.wait_for_timeout(100)
    return False


@pytest.fixture
def duel(transactional_db, make_user):
    return make_user("Ana"), make_user("Beto")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("state", CONTROLS)
def test_every_control_of_the_table_state_is_on_screen(site_server, browser, duel, state, size):
    viewer, rival = duel
    match = table_in_state(state, viewer, rival)
    # Desktop screenshots are drawn at half resolution: small files, the same layout.
    scale = 0.5 if SCREENSHOTS_DIR and size == "desktop" else 1
    context, page = open_page(browser, site_server, size=size, language="pt-BR", user=viewer, scale=scale)
    page.goto(f"{site_server.url}/play/m/{match.public_id}/")
    expect(page.locator("[data-connection]")).to_be_hidden()  # the socket is open; its snapshot follows
    for selector in CONTROLS[state]:
        controls = page.locator(selector)
        assert controls.count() >= 1, selector
        for n in range(controls.count()):
            assert settles_on_screen(page, controls.nth(n)), f"{state} at {size}: {selector} #{n} is off screen"
    for selector in ABSENT[state]:
        assert page.locator(selector).count() == 0, f"{state}: {selector} should not be there"
    announced = ANNOUNCED[state]
    if state == "result" and match.winner_side == 0:
        announced = "Você ganhou a partida!"
    expect(page.locator("#announce")).to_contain_text(announced)
    if SCREENSHOTS_DIR:
        Path(SCREENSHOTS_DIR).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS_DIR}/table-{state}-{size}.png")
    context.close()
