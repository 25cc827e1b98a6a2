"""The cards in real Chromium at 390×844 and 1280×800 (docs/cards.md): every face and back is drawn from the
sprite (static/games/cards.svg) through `<use>`, in the suit's ink on paper; a manilha is marked; a card played
face down is a back and nothing of its face reaches the page.

With SCREENSHOTS_DIR set (`make screenshots`) it also saves the table at each size and face style.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from django.utils import translation
from PIL import Image
from playwright.sync_api import expect

from games import engine
from games.match.moves import apply_action
from games.match.starting import SeatPlan, create_match
from games.models import Match
from games.table.presentation import card_face
from shop.inventory import equip, grant_item
from shop.models import Item
from tests.support.browser import open_page, wait_until_live
from tests.support.leaks import cards_shown

pytestmark = pytest.mark.browser

SCREENSHOTS_DIR = os.environ.get("SCREENSHOTS_DIR", "")
# Mineiro (its fixed manilhas: 4C 7H AS 7D) with face-down cards on. Round 1: Ana's KS lost to the rival's 7D;
# the rival leads round 2 with the 5S face down; Ana holds the zap (4C) and 3H.
DEAL = {"hands": [["KS", "4C", "3H"], ["7D", "5S", "QH"]]}
MOVES: list[tuple[int, dict]] = [
    (0, {"do": "play", "card": "KS"}),
    (1, {"do": "play", "card": "7D"}),
    (1, {"do": "play", "card": "5S", "face_down": True}),
]


def mineiro_round_two(viewer, rival) -> Match:
    rules = engine.RuleSet(variant="mineiro", seats=2, face_down=True)
    seats = [SeatPlan(user=u, display_name=u.username) for u in (viewer, rival)]
    match = create_match(rules=rules, seats=seats, bot_level="medium", seed=7)
    dealt = engine.new_match(rules, 7, dealer=1, deals=[DEAL])
    Match.objects.filter(pk=match.pk).update(state=engine.to_json(dealt))
    for seat, move in MOVES:
        match.refresh_from_db()
        match = apply_action(match.public_id, seat, move, match.version)
    return match


def inks(locator) -> dict[str, float]:
    """The share of the element's pixels that are paper (near white), red ink and black ink."""
    pixels = list(Image.open(io.BytesIO(locator.screenshot())).convert("RGB").get_flattened_data())
    share = lambda test: sum(1 for p in pixels if test(*p)) / len(pixels)  # noqa: E731
    return {
        "paper": share(lambda r, g, b: min(r, g, b) > 225),
        "red": share(lambda r, g, b: r > 150 and g < 90 and b < 90),
        "black": share(lambda r, g, b: max(r, g, b) < 70),
    }


@pytest.mark.parametrize("size, deck", [("phone", "classic"), ("desktop", "classic"), ("phone", "night")])
def test_the_cards_read_at_a_glance(site_server, browser, stocked_shop, make_user, size, deck):
    viewer, rival = make_user("Ana"), make_user("Beto")
    if deck != "classic":
        item = Item.objects.get(slug=deck)
        grant_item(viewer, item, how="gift")
        equip(viewer, item)
    match = mineiro_round_two(viewer, rival)
    context, page = open_page(browser, site_server, size=size, language="pt-BR", user=viewer)
    page.goto(f"{site_server.url}/play/m/{match.public_id}/")
    wait_until_live(page)  # the socket's first snapshot redraws the hand: read the cards after it
    hand = page.locator("#hand")
    expect(hand.locator("[data-card]")).to_have_count(2)

    # Each card is a reference into the sprite, which the browser fetched; its name is the card's label.
    with translation.override("pt-br"):
        labels = {code: card_face(code)["label"] for code in ("4C", "3H", "7D", "KS")}
    for code in ("4C", "3H"):
        art = hand.locator(f'[data-card="{code}"] .card[role=img]')
        expect(art).to_have_attribute("aria-label", labels[code])
        assert re.search(rf"/games/cards(\.[0-9a-f]+)?\.svg#card-{code}$", art.locator("use").get_attribute("href"))
    # (Waited for: a card is blank until the sprite has arrived, and the pixels below are read.)
    page.wait_for_function(
        "performance.getEntriesByType('resource').some(e => /\\/games\\/cards[.\\w]*svg/.test(e.name))"
    )

    # The zap is marked as a manilha, the 3 is not; so are the four manilhas of the legend and the 7D of round 1.
    expect(hand.locator('[data-card="4C"] .card.manilha')).to_be_visible()
    expect(hand.locator('[data-card="3H"] .card.manilha')).to_have_count(0)
    expect(page.locator(".vira .manilha [role=img].manilha")).to_have_count(4)
    round_one = page.locator('#trick [data-round="1"]')
    expect(round_one.locator(".mini-card")).to_have_count(2)
    expect(round_one.locator('.mini-card.manilha use[href$="#card-7D"]')).to_have_count(1)
    expect(round_one.locator('.mini-card:not(.manilha) use[href$="#card-KS"]')).to_have_count(1)

    # The rival's card face down is the deck's back: no face of it anywhere on the page.
    face_down = page.locator('#trick [data-played-by="1"] .card')
    expect(face_down).to_have_class("card back")
    # (Read as cards: a random token of the page, a CSRF one say, may well contain the letters "5S".)
    assert "5S" not in cards_shown(page.content())

    if deck == "classic":
        # Drawn for real: the 3 of hearts in red ink on paper, the zap in black, the back mostly not paper.
        # (Read upright: the hand is fanned, and a tilted card's box takes in the dark room around it.)
        page.add_style_tag(content="#hand .cards > *, #trick .play > .card { transform: none !important; }")
        hearts, clubs, back = (
            inks(hand.locator('[data-card="3H"] .card')),
            inks(hand.locator('[data-card="4C"] .card')),
            inks(face_down),
        )
        assert hearts["paper"] > 0.5 and hearts["red"] > 0.02 and hearts["black"] < 0.005, hearts
        assert clubs["paper"] > 0.5 and clubs["black"] > 0.02 and clubs["red"] < 0.005, clubs
        assert back["paper"] < 0.3, back
    else:
        expect(hand.locator(f'[data-card="3H"] .card.card-face--{deck}')).to_be_visible()

    if SCREENSHOTS_DIR:
        Path(SCREENSHOTS_DIR).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS_DIR}/table-cards-{deck}-{size}.png")
    context.close()
