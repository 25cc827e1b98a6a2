"""Every page and table state of the rooms in real Chromium, in pt-BR at 390×844 and 1280×800 (issue 30 items 9
and 10): the rooms lobby, a waiting room, a room's table mid-hand, a truco call, the chat, a stake, the annulment
vote, play again, the result won and lost, the spectator's view and the replay, each built through the real
services (tests/support/room_states.py). Each shows its hooks (tests/support/hooks.py) on screen or within reach,
says what it should to a screen reader and has no serious or critical axe-core violation; what a state still
lacks is listed there (`GAPS`) with why, and its test is an expected failure until the gap is closed.

Then the table by keyboard and screen reader: the whole hand played by keyboard (Tab reaches every playable
card and action in order, Enter and Space play the focused card, the number keys 1-3 play a card), every card
named for assistive technology, a card another seat plays read out by the live region.

With SCREENSHOTS_DIR set (`make screenshots`) it saves each state at each size as `<state>-<size>.png`, full
resolution, before judging it (a state with a gap is still photographed).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games import engine
from games.table.presentation import card_face
from tests.support.browser import (
    SIZES,
    axe_results,
    inside_viewport,
    off_the_loop,
    open_page,
    settles_on_screen,
    wait_until_live,
)
from tests.support.hooks import PLAYABLE_CARD, STATES, gaps_for
from tests.support.matches import state_of
from tests.support.room_states import BUILDERS, PEOPLE, play_a_card, play_cards_until, room_mid_hand, room_of_four
from tests.support.table_states import table_in_state

pytestmark = pytest.mark.browser

SCREENSHOTS_DIR = os.environ.get("SCREENSHOTS_DIR", "")
LANGUAGE = "pt-BR"
# The page's countdowns (a move's clock, the vote's, play again's) show a number, not their placeholder.
CLOCKS_TICKING_JS = """() => [...document.querySelectorAll('[data-deadline], [data-again-expires]')]
  .every((el) => el.textContent.trim() !== '–')"""


def label(code: str) -> str:
    """A card's accessible name in pt-BR, as the table's templates write it."""
    with translation.override("pt-br"):
        face = card_face(code)
        assert face is not None
        return face["label"]


def problems_of(page, hooks, size: str) -> dict[str, str]:
    """Each hook the page fails, keyed by its selector ("#announce" for the live region)."""
    found = {}
    on_screen = hooks.on_screen + (hooks.on_desktop if size == "desktop" else ())
    for selector in on_screen:
        elements = page.locator(selector)
        if not elements.count():
            found[selector] = "missing"
        for n in range(elements.count()):
            if not settles_on_screen(page, elements.nth(n)):
                found[selector] = f"#{n + 1} of {elements.count()} not on screen without scrolling"
                break
    for selector in hooks.absent:
        if page.locator(selector).count():
            found[selector] = "should not be on the page"
    if hooks.announced:
        try:
            expect(page.locator("#announce")).to_contain_text(re.compile(hooks.announced), timeout=5000)
        except AssertionError:
            found["#announce"] = f"says {page.locator('#announce').text_content()!r}, not /{hooks.announced}/"
    return found


def unreachable(page, hooks) -> dict[str, str]:
    """The `reachable` hooks missing, or not whole on screen once scrolled to (this scrolls the page)."""
    found = {}
    for selector in hooks.reachable:
        elements = page.locator(selector)
        if not elements.count():
            found[selector] = "missing"
        for n in range(elements.count()):
            elements.nth(n).scroll_into_view_if_needed()
            if not inside_viewport(page, elements.nth(n)):
                found[selector] = f"#{n + 1} of {elements.count()} not whole on screen even when scrolled to"
                break
    return found


def serious_axe_violations(page) -> dict[str, str]:
    return {
        f"axe:{v['id']}": f"{v['impact']}: {v['help']} ({[n['target'] for n in v['nodes']][:3]})"
        for v in axe_results(page)
        if v["impact"] in ("serious", "critical")
    }


def judge(state: str, size: str, problems: dict[str, str]) -> None:
    """Fail on any problem not listed in GAPS; fail too when a listed gap is closed (remove it from GAPS);
    an expected failure when only listed gaps remain."""
    gaps = gaps_for(state, size)
    unexpected = {key: why for key, why in problems.items() if key not in gaps}
    closed = sorted(key for key in gaps if key not in problems)
    assert not unexpected, f"{state} at {size}: {unexpected}"
    assert not closed, f"{state} at {size}: closed, remove from tests/support/hooks.py GAPS: {closed}"
    if gaps:
        pytest.xfail(f"{state} at {size}: {gaps}")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("state", STATES)
def test_every_state_shows_its_hooks_on_screen_and_passes_axe(
    site_server, browser, transactional_db, make_user, state, size
):
    viewer = off_the_loop(BUILDERS[state], make_user)
    context, page = open_page(browser, site_server, size=size, language=LANGUAGE, user=viewer.user)
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = page.goto(site_server.url + viewer.path)
    assert response.status == 200, f"{viewer.path} answered {response.status}"
    expect(page.locator("html")).to_have_attribute("lang", LANGUAGE.lower())
    wait_until_live(page)
    page.wait_for_function(CLOCKS_TICKING_JS)
    page.evaluate("document.fonts.ready")
    problems = problems_of(page, STATES[state], size)
    if SCREENSHOTS_DIR:
        Path(SCREENSHOTS_DIR).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS_DIR}/{state}-{size}.png")
    problems |= unreachable(page, STATES[state])
    problems |= serious_axe_violations(page)
    if errors:
        problems["console"] = "; ".join(errors)
    context.close()
    judge(state, size, problems)


# --- the keyboard and the screen reader ---------------------------------------------------------------------

# What the focused element is: its hooks, where it sits and whether a person can see it.
FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) { return null; }
  window.__stops = window.__stops || [];
  const again = window.__stops.includes(el);
  window.__stops.push(el);
  const box = el.getBoundingClientRect();
  const style = getComputedStyle(el);
  return {
    again,
    card: el.getAttribute('data-card'),
    action: el.closest('#actions') ? el.getAttribute('data-action') : null,
    x: box.left + window.scrollX,
    seen: box.width > 1 && box.height > 1 && style.visibility !== 'hidden' && style.opacity !== '0',
  };
}"""


# The next Tab goes to the page's first focusable element.
FROM_THE_TOP_JS = """() => {
  window.__stops = [];
  document.body.tabIndex = -1;
  document.body.focus();
  document.body.removeAttribute('tabindex');
}"""


def tab_stops(page, limit: int = 120) -> list[dict]:
    """Every element Tab reaches, in order, once round the page (from the top)."""
    page.evaluate(FROM_THE_TOP_JS)
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUSED_JS)
        if stop is None or stop["again"]:
            break
        stops.append(stop)
    return stops


def tab_to(page, selector: str, limit: int = 120):
    """Press Tab from the top of the page until the focus is on the first element matching `selector`."""
    page.evaluate(FROM_THE_TOP_JS)
    target = page.locator(selector).first
    for _ in range(limit):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            return target
    raise AssertionError(f"Tab never reached {selector}")


def play_by_key(page, key: str, *, focus: str | None = None) -> str:
    """Play a card by keyboard (Tab to it and press `key`, or press a number key); returns its code, once the
    table shows the card on the felt, gone from the hand, at a new version."""
    version = page.locator("#status").get_attribute("data-version")
    if focus:
        card = tab_to(page, focus).get_attribute("data-card")
    else:
        card = page.locator(PLAYABLE_CARD).nth(int(key) - 1).get_attribute("data-card")
    page.keyboard.press(key)
    expect(page.locator("#status")).not_to_have_attribute("data-version", version, timeout=10000)
    expect(page.locator(f'#hand [data-card="{card}"]')).to_have_count(0)
    expect(page.locator('#trick [data-played-by="0"]').get_by_role("img", name=label(card))).to_be_visible()
    return card


def rival_plays_until_my_turn(page, match) -> None:
    while engine.seats_to_act(state_of(match)) != [0]:
        match = off_the_loop(play_a_card, match, 1)
    # The rival's moves reach the page over the socket (at once on Redis; on the in-memory layer the daphne
    # process learns of them from its watchdog within GAMES_SOCKET_WATCHDOG_S).
    expect(page.locator("#status")).to_have_attribute("data-version", str(match.version), timeout=15000)
    expect(page.locator(PLAYABLE_CARD).first).to_be_visible()


def test_the_whole_hand_is_played_by_keyboard(site_server, browser, transactional_db, make_user):
    # The duel of seed 3 (tests/support/table_states.py): Ana leads round 1 with the card she plays, Beto wins it
    # and leads round 2, Ana wins that and leads round 3; so each of her cards stays on the felt once played.
    ana, beto = make_user("Ana"), make_user("Beto")
    match = off_the_loop(table_in_state, "turn", ana, beto)
    context, page = open_page(browser, site_server, size="desktop", language=LANGUAGE, user=ana)
    page.goto(f"{site_server.url}/play/m/{match.public_id}/")
    wait_until_live(page)

    # Tab reaches each playable card, in the hand's order from left to right, one after the other, then the
    # actions together; every stop can be seen.
    stops = tab_stops(page)
    hand = page.locator(PLAYABLE_CARD).evaluate_all("els => els.map(el => el.getAttribute('data-card'))")
    actions = page.locator("#actions [data-action]").evaluate_all(
        "els => els.map(el => el.getAttribute('data-action'))"
    )
    assert len(hand) == 3 and actions == ["raise"]
    cards_at = [n for n, stop in enumerate(stops) if stop["card"]]
    assert [stops[n]["card"] for n in cards_at] == hand, stops
    assert cards_at == list(range(cards_at[0], cards_at[0] + 3)), "the cards are consecutive stops"
    xs = [stops[n]["x"] for n in cards_at]
    assert xs == sorted(xs), "the focus moves through the hand from left to right"
    actions_at = [n for n, stop in enumerate(stops) if stop["action"]]
    assert [stops[n]["action"] for n in actions_at] == actions
    assert actions_at == list(range(actions_at[0], actions_at[0] + len(actions)))
    assert all(stop["seen"] for stop in stops), [stop for stop in stops if not stop["seen"]]

    # The focused card shows it is focused (its pixels change with the focus).
    first = tab_to(page, PLAYABLE_CARD)
    box = first.bounding_box()
    clip = {"x": box["x"] - 8, "y": box["y"] - 8, "width": box["width"] + 16, "height": box["height"] + 16}
    focused = page.screenshot(clip=clip)
    page.evaluate("() => document.activeElement.blur()")
    shows_focus = page.screenshot(clip=clip) != focused
    assert shows_focus, "a focused card looks the same as an unfocused one"

    # Round 1: Enter on the focused card; round 2: Space; round 3: the number key 1.
    play_by_key(page, "Enter", focus=PLAYABLE_CARD)
    rival_plays_until_my_turn(page, match)
    play_by_key(page, " ", focus=PLAYABLE_CARD)
    rival_plays_until_my_turn(page, match)
    play_by_key(page, "1")
    context.close()


def test_the_number_keys_play_the_matching_card(site_server, browser, transactional_db, make_user):
    ana, beto = make_user("Ana"), make_user("Beto")
    match = off_the_loop(table_in_state, "turn", ana, beto)
    context, page = open_page(browser, site_server, size="phone", language=LANGUAGE, user=ana)
    page.goto(f"{site_server.url}/play/m/{match.public_id}/")
    wait_until_live(page)
    play_by_key(page, "3")
    rival_plays_until_my_turn(page, match)
    play_by_key(page, "2")
    context.close()


def test_every_card_on_the_table_has_an_accessible_name(site_server, browser, transactional_db, make_user):
    viewer = off_the_loop(room_mid_hand, make_user)
    view = engine.seat_view(state_of(viewer.match), 0)
    context, page = open_page(browser, site_server, size="phone", language=LANGUAGE, user=viewer.user)
    page.goto(site_server.url + viewer.path)
    wait_until_live(page)

    # Computed by Chromium's accessibility tree: each playable card is a button named for its card, each card on
    # the felt and the vira an image named for its card, each other seat's cards an image saying how many.
    for code in view["hand"]:
        expect(page.locator("#hand").get_by_role("button", name=label(code))).to_have_count(1)
    for play in view["trick"]:
        felt = page.locator(f'#trick [data-played-by="{play["seat"]}"]')
        expect(felt.get_by_role("img", name=label(play["card"]), exact=True)).to_have_count(1)
    expect(page.locator("#trick [data-vira]").get_by_role("img", name=label(view["vira"]), exact=True)).to_be_visible()
    for seat in page.locator("#seats [data-seat]:not(.me)").all():
        expect(seat.get_by_role("img", name=re.compile(r"\d+ cartas?"))).to_have_count(1)
    # No image or button anywhere on the table without a name.
    tree = page.locator("#table").aria_snapshot()
    unnamed = [line.strip() for line in tree.splitlines() if re.fullmatch(r"\s*- (img|button)(:.*)?", line)]
    assert unnamed == [], tree
    context.close()


def test_a_card_another_seat_plays_is_announced(site_server, browser, transactional_db, make_user):
    room, match, people = off_the_loop(room_of_four, make_user)
    match = off_the_loop(play_cards_until, match, lambda state: engine.seats_to_act(state) == [3])
    context, page = open_page(browser, site_server, size="phone", language=LANGUAGE, user=people[0])
    page.goto(f"{site_server.url}/play/m/{match.public_id}/")
    wait_until_live(page)
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("role", "status")  # a polite live region: read out when it changes

    card = engine.seat_view(state_of(match), 3)["hand"][0]
    off_the_loop(play_a_card, match, 3)
    # Through the real socket: at once on Redis, within the daphne's watchdog (5 s) on the in-memory layer.
    expect(page.get_by_role("status").filter(has_text=PEOPLE[3])).to_contain_text(label(card), timeout=10000)
    expect(announce).to_contain_text("Sua vez")
    context.close()
