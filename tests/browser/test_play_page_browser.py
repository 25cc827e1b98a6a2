"""The Play page in real Chromium (issue 30 item 7): four tables as tiles, the AI level, "More options" with only
what applies to the chosen table; no text cut at 390×844 nor at 1280×800, in either language; one table and
Start begin that match.

With SCREENSHOTS_DIR set it also saves Mineiro for four at both sizes, folded and with
"More options" open (pt-BR); the site walk saves the page as it opens.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import engine
from games.models import Match
from tests.support.browser import choose_on_the_play_page, open_page

pytestmark = pytest.mark.browser

SCREENSHOTS_DIR = os.environ.get("SCREENSHOTS_DIR", "")
PRESETS = ("paulista-2", "paulista-4", "mineiro-2", "mineiro-4")

# Every visible piece of text whose box is narrower than its text (cut, or spilling out), and every select
# whose widest option does not fit its closed box (a select's own scrollWidth never tells).
CUT_TEXT_JS = """() => {
  const cut = [];
  const visible = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const name = el => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '')
    + ' "' + el.textContent.trim().slice(0, 40) + '"';
  const texts = 'main label, main legend, main summary, main summary > span, main button, main .choice > span, '
    + 'main .preset-face, main .preset-face > *, main p, main li, main h1, main h2, footer label';
  for (const el of document.querySelectorAll(texts)) {
    if (visible(el) && el.scrollWidth > el.clientWidth + 1) {
      cut.push(`${name(el)}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  const ruler = document.createElement('canvas').getContext('2d');
  for (const select of document.querySelectorAll('select')) {
    if (!visible(select)) continue;
    const style = getComputedStyle(select);
    ruler.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    for (const option of select.options) {
      const width = ruler.measureText(option.text).width;
      if (width > room) cut.push(`select[name=${select.name}] "${option.text}": ${Math.ceil(width)} > ${room}`);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth) cut.push('the page is wider than the screen');
  return cut;
}"""


def shown(page, selector: str) -> bool:
    return page.locator(selector).first.is_visible()


@pytest.mark.parametrize(
    ("size", "language"), [("phone", "pt-BR"), ("phone", "en"), ("desktop", "pt-BR"), ("desktop", "en")]
)
def test_no_text_is_cut_on_any_table_in_either_mode(site_server, browser, transactional_db, size, language):
    context, page = open_page(browser, site_server, size=size, language=language)
    page.goto(site_server.url + "/play/")
    page.click("[data-more-options] > summary")
    found = {}
    for mode in ("single", "tournament"):
        page.check(f"input[name=mode][value={mode}]")
        for preset in PRESETS:
            page.check(f"input[name=preset][value={preset}]")
            for teams in ("yes", "no") if preset.endswith("-4") else ("",):
                if teams:
                    page.check(f"input[name=partnership][value={teams}]")
                cut = page.evaluate(CUT_TEXT_JS)
                if cut:
                    found[(mode, preset, teams)] = cut
    context.close()
    assert found == {}


def test_choosing_a_table_shows_only_the_options_that_apply_to_it(site_server, browser, transactional_db):
    context, page = open_page(browser, site_server, size="phone", language="pt-BR")
    page.goto(site_server.url + "/play/")
    expect(page.locator("input[name=preset][value=paulista-2]")).to_be_checked()  # the defaults: Paulista for two
    page.click("[data-more-options] > summary")
    teams, style = "[data-field=partnership]", "[data-field=mineiro_style]"
    # Paulista for two: neither the teams nor the Mineiro style; the face-down default is Paulista's.
    assert not shown(page, teams) and not shown(page, style)
    assert shown(page, "[data-applies=paulista]") and not shown(page, ".variant-default[data-applies=mineiro]")
    signals = "[data-field=partner_signals]"
    assert not shown(page, signals)
    page.check("input[name=preset][value=paulista-4]")
    assert shown(page, teams) and not shown(page, style) and shown(page, signals)
    page.check("input[name=preset][value=mineiro-2]")
    assert not shown(page, teams) and shown(page, style)
    assert shown(page, ".variant-default[data-applies=mineiro]") and not shown(page, "[data-applies=paulista]")
    page.check("input[name=preset][value=mineiro-4]")
    assert shown(page, teams) and shown(page, style)
    # The four-seat tiles say how four play.
    tile = page.locator("label.preset", has=page.locator("input[value=mineiro-4]"))
    expect(tile.locator("[data-teams=yes]")).to_be_visible()
    expect(tile.locator("[data-teams=no]")).to_be_hidden()
    page.check("input[name=partnership][value=no]")
    assert not shown(page, signals)  # signals are between partners
    expect(tile.locator("[data-teams=no]")).to_have_text("cada um por si")
    expect(tile.locator("[data-teams=no]")).to_be_visible()
    expect(tile.locator("[data-teams=yes]")).to_be_hidden()
    # A tournament chooses its own AI levels: the level gives way to a word on the stages, and to its prize.
    assert shown(page, "[data-field=bot_level]") and shown(page, "[data-pays=single]")
    page.check("input[name=mode][value=tournament]")
    assert not shown(page, "[data-field=bot_level]") and shown(page, ".tournament-levels")
    assert shown(page, "[data-pays=tournament]") and not shown(page, "[data-pays=single]")
    # Folded again, the summary names what differs from the defaults (kept true by the page's script).
    page.click("[data-more-options] > summary")
    expect(page.locator("[data-more-chosen]")).to_have_text("Torneio (4 vitórias seguidas) · Cada um por si")
    page.check("input[name=preset][value=paulista-2]")
    expect(page.locator("[data-more-chosen]")).to_have_text("Torneio (4 vitórias seguidas)")
    context.close()


def test_a_table_and_start_begin_that_match(site_server, browser, transactional_db, make_user):
    user = make_user("Mesa")
    context, page = open_page(browser, site_server, size="phone", language="en", user=user)
    page.goto(site_server.url + "/play/")
    choose_on_the_play_page(page, variant="mineiro", seats="4", partnership="no", bot_level="easy")
    page.click("[data-action=start-match]")
    expect(page.locator("#status[data-version]")).to_be_visible()
    match = Match.objects.get(seats__user=user)
    assert match.rules == engine.RuleSet(variant="mineiro", seats=4, partnership=False).to_dict()
    assert match.bot_level == "easy"
    # Back on the Play page, the same table and options are chosen.
    page.goto(site_server.url + "/play/")
    expect(page.locator("input[name=preset][value=mineiro-4]")).to_be_checked()
    expect(page.locator("[data-more-chosen]")).to_have_text("Each for themselves")
    context.close()


@pytest.mark.skipif(not SCREENSHOTS_DIR, reason="saves screenshots only with SCREENSHOTS_DIR")
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screenshots_of_the_play_page(site_server, browser, transactional_db, make_user, size):
    context, page = open_page(browser, site_server, size=size, language="pt-BR", user=make_user("Foto"))
    page.goto(site_server.url + "/play/")
    Path(SCREENSHOTS_DIR).mkdir(parents=True, exist_ok=True)
    page.check("input[name=preset][value=mineiro-4]")
    page.screenshot(path=f"{SCREENSHOTS_DIR}/play-mineiro-4-{size}.png")
    page.click("[data-more-options] > summary")
    page.wait_for_timeout(300)  # the summary's arrow turns
    page.screenshot(path=f"{SCREENSHOTS_DIR}/play-more-options-{size}.png", full_page=True)
    context.close()
