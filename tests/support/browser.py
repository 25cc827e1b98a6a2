"""Helpers for the real-Chromium tests: a signed-in browser context, the page's visible words, its live
sockets, what is on screen, axe-core's serious and critical violations, playing a table through its buttons."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from axe_playwright_python.sync_playwright import Axe
from django.db import connections
from django.test import Client
from playwright.sync_api import expect

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
# A phone on its side: the live table's layout is checked there too (tests/browser/test_table_layout_browser.py).
LANDSCAPE = {"landscape": {"width": 844, "height": 390}}


def sign_in(context, server, user) -> None:
    """Give a browser context a signed-in session cookie for `user` (no sign-in form round trip)."""
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server.url}])


# Every word a person reads or hears on the page: text (also inside closed menus and <option>s) and
# the attributes read aloud or shown on hover, without the parts marked as another language (the
# language switch names each language in its own tongue, with its `lang`), country names and email addresses.
PAGE_WORDS_JS = """() => {
  const lang = document.documentElement.lang;
  const body = document.body.cloneNode(true);
  body.querySelectorAll('[lang]').forEach(el => { if (el.lang !== lang) el.remove(); });
  body.querySelectorAll('script, style, noscript').forEach(el => el.remove());
  // Country names are proper names (São Tomé and Príncipe), translated by django-countries.
  body.querySelectorAll('[data-field=country] option').forEach(el => el.remove());
  const attributes = [];
  body.querySelectorAll('[aria-label], [title], [alt], [placeholder]').forEach(el => {
    for (const name of ['aria-label', 'title', 'alt', 'placeholder']) {
      if (el.getAttribute(name)) attributes.push(el.getAttribute(name));
    }
  });
  const words = document.title + '\\n' + body.textContent + '\\n' + attributes.join('\\n');
  return words.replace(/[\\w.+-]+@[\\w-]+(\\.[\\w-]+)+/g, ' ');  // email addresses are nobody's language
}"""


# Noted in every page before its scripts run: which htmx sockets (by their ws-connect path) opened and
# received a frame (htmx-ext-ws fires its events on the element that holds ws-connect), and which elements'
# own requests (hx-get and the like) have been answered.
SOCKETS_JS = """(() => {
  window.__sockets = {open: {}, frames: {}};
  const note = (kind) => (e) => {
    const path = e.target && e.target.getAttribute && e.target.getAttribute('ws-connect');
    if (path) { window.__sockets[kind][path] = (window.__sockets[kind][path] || 0) + 1; }
  };
  document.addEventListener('htmx:wsOpen', note('open'));
  document.addEventListener('htmx:wsAfterMessage', note('frames'));
  document.addEventListener('htmx:afterRequest', (e) => { e.target.__answered = true; });
})()"""

# True once the panels a page loads after itself (hx-trigger="load": the table's chat and annulment vote) are
# answered and every socket on the page is open and has sent its first frame: each of the site's sockets pushes
# on connect (a table's snapshot, the lobby's list, a room's panels, the chat's last lines), and that push swaps
# what the page drew, so an element found before it may be detached under the test's feet.
SOCKETS_READY_JS = """() => {
  if ([...document.querySelectorAll('[hx-trigger="load"]')].some((el) => !el.__answered)) { return false; }
  const seen = window.__sockets || {open: {}, frames: {}};
  return [...document.querySelectorAll('[ws-connect]')].every((el) => {
    const path = el.getAttribute('ws-connect');
    return seen.open[path] && seen.frames[path];
  });
}"""


def open_page(browser, server, *, size: str, language: str, user=None):
    """A new browser context at one of SIZES in `language` (signed in as `user` if given) and its page."""
    context = browser.new_context(locale=language, viewport={**SIZES, **LANDSCAPE}[size])
    context.add_init_script(SOCKETS_JS)
    if user is not None:
        sign_in(context, server, user)
    return context, context.new_page()


def wait_until_live(page, timeout: float = 15000) -> None:
    """Wait until the page's sockets are open and each has sent its first frame (a page opened with
    `open_page`); on a table page the connection notice is hidden too."""
    page.wait_for_function(SOCKETS_READY_JS, timeout=timeout)
    if page.locator("[data-connection]").count():
        expect(page.locator("[data-connection]")).to_be_hidden()


def axe_results(page) -> list[dict]:
    """Every axe-core violation on the page as it is now (axe-core's own dicts: id, impact, help, nodes)."""
    return Axe().run(page).response["violations"]


def axe_violations(page) -> list[str]:
    """The serious and critical axe-core violations, one line each with up to three of the nodes."""
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in axe_results(page)
        if v["impact"] in ("serious", "critical")
    ]


def off_the_loop(function, *args, **kwargs):
    """Call `function` in a thread of its own and return what it returns. Playwright's sync API keeps an event
    loop running in the test's thread, where `async_to_sync` refuses to run: a service that publishes (a move
    to the table's sockets, a room's change to the lobby's) publishes from there only in another thread."""

    def run():
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()  # the thread's own connection, not left open past the test database

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def inside_viewport(page, locator) -> bool:
    """The element's whole box is on screen, without scrolling (half a pixel of rounding allowed)."""
    box = locator.bounding_box()
    viewport = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"] + 0.5
        and box["y"] + box["height"] <= viewport["height"] + 0.5
    )


def choose_on_the_play_page(page, **choices) -> None:
    """Choose options on the Play page as a person does: `variant` and `seats` pick one of the four tables
    (the rest of the table as the page shows it), any other option its radio button, opening "More options"
    when it is folded there."""
    if "variant" in choices or "seats" in choices:
        shown = page.locator("input[name=preset]:checked").get_attribute("value").split("-")
        variant, seats = choices.pop("variant", shown[0]), choices.pop("seats", shown[1])
        page.check(f"input[name=preset][value={variant}-{seats}]")
    for name, value in choices.items():
        control = page.locator(f"input[name={name}][value='{value}']")
        if not control.is_visible():
            page.click("[data-more-options] > summary")
        control.check()


# True when a box that hides its overflow (a scoreboard's pill, a panel) cuts the element: its own box
# may be on screen while the part a person should read is hidden by an ancestor. A fixed box (a vote over the
# table) escapes its ancestors' overflow.
CLIPPED_JS = """(el) => {
  const r = el.getBoundingClientRect();
  for (let a = el.parentElement, below = el; a; below = a, a = a.parentElement) {
    if (getComputedStyle(below).position === 'fixed') { return false; }  // drawn over the page, clipped by nothing
    const style = getComputedStyle(a);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') { continue; }
    const c = a.getBoundingClientRect();
    if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5) {
      return true;
    }
  }
  return false;
}"""


def settles_on_screen(page, locator, seconds: float = 3) -> bool:
    """On screen and not cut by an ancestor, now or once the socket's snapshot has been swapped in (a
    layout in the middle of a swap is not what a person sees); an element that stays off screen is False."""
    for _ in range(int(seconds * 10)):
        if inside_viewport(page, locator) and not locator.evaluate(CLIPPED_JS):
            return True
        page.wait_for_timeout(100)
    return False


# --- playing a table through its buttons ------------------------------------------------------------


def enabled(page, selector: str):
    """The first control matching `selector` a person could click now, or None."""
    control = page.locator(selector).first
    return control if control.count() and control.is_visible() and control.is_enabled() else None


def click_and_wait(page, control) -> None:
    """Click a table control and wait until the table shows the next version (the move was stored)."""
    version = page.locator("#status").get_attribute("data-version")
    control.click()
    expect(page.locator("#status")).not_to_have_attribute("data-version", version, timeout=10000)


def play_until_result(page, take_turn, attempts: int = 500) -> None:
    """Call `take_turn()` (True if it clicked) until the page shows the match's result; a turn that could not
    act waits a moment for the other seats."""
    for _ in range(attempts):
        if page.locator("[data-match-result]").count():
            break
        if not take_turn():
            page.wait_for_timeout(100)
    expect(page.locator("[data-match-result]")).to_be_visible()


def take_my_turn(page) -> bool:
    """The plain policy: accept a raise, play a hand of eleven, else play the first card, if this page may act."""
    for selector in ("#actions [data-action=accept]", "#actions [data-action=play-hand]", "#hand [data-card]"):
        control = enabled(page, selector)
        if control is not None:
            click_and_wait(page, control)
            return True
    return False


def quick_control(page, winning: bool):
    """The policy that ends a hand at 6 points: the winning side raises whenever it may; the other raises
    back once and then runs (as tests.support.matches.win_match_for does through the service)."""
    if winning:
        order: tuple[str, ...] = (
            "#actions [data-action=raise]",
            "#actions [data-action=accept]",
            "#actions [data-action=play-hand]",
        )
    else:
        pending = page.locator("#actions [data-pending-raise]")
        raise_back = pending.count() and int(pending.first.get_attribute("data-pending-raise")) < 9
        order = (("#actions [data-action=raise]",) if raise_back else ()) + (
            "#actions [data-action=run]",
            "#actions [data-action=accept]",
            "#actions [data-action=play-hand]",
        )
    for selector in (*order, "#hand [data-card]"):
        control = enabled(page, selector)
        if control is not None:
            return control
    return None


def play_quick_turn(sides: dict) -> bool:
    """One click of `quick_control` by the first page (a key of `sides`, valued "on the winning side") that may act."""
    for page, winning in sides.items():
        control = quick_control(page, winning)
        if control is not None:
            click_and_wait(page, control)
            return True
    return False
