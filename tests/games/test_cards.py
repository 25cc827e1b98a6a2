"""The cards of the table (docs/cards.md): one SVG sprite holds the 40 faces of the truco deck and the back, and
every fragment draws a card as a reference into it, so a pushed fragment carries no art; a card is named by its
label, a manilha of the hand is marked, and a face-down card is a back with nothing of its face."""

import gzip
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

from games import engine
from games.engine.cards import CARD_NAMES
from games.table import rendering
from games.table.presentation import card_face
from games.table.rendering import SeatFacts
from shop.models import Item
from tests.support.leaks import CARD_TOKEN, cards_shown

SPRITE = Path(settings.BASE_DIR) / "static" / "games" / "cards.svg"
DECKS_CSS = Path(settings.BASE_DIR) / "shop" / "static" / "shop" / "decks.css"
SVG = "{http://www.w3.org/2000/svg}"
DECK = {"slug": "classic", "back_url": "/static/shop/decks/classic.svg", "face_style": "classic"}
SEATS = [SeatFacts(0, "Ana", None, False, True, 1), SeatFacts(1, "Beto", None, False, True, 2)]
USE = re.compile(r'<use href="/static/games/cards(?:\.[0-9a-f]+)?\.svg#card-([^"]+)"')  # hashed in production


def mineiro_round_two():
    """Mineiro (manilhas 4C 7H AS 7D), face-down cards on: Ana's KS lost round 1 to Beto's 7D, Beto leads
    round 2 with the 5S face down; Ana holds the zap (4C) and 3H."""
    rules = engine.RuleSet(variant="mineiro", seats=2, face_down=True)
    state = engine.new_match(rules, 7, dealer=1, deals=[{"hands": [["KS", "4C", "3H"], ["7D", "5S", "QH"]]}])
    for seat, action in [
        (0, engine.Action("play", "KS")),
        (1, engine.Action("play", "7D")),
        (1, engine.Action("play", "5S", face_down=True)),
    ]:
        state, _ = engine.apply(state, seat, action)
    return state


def fragments(view: dict, *, deck=DECK, language="en") -> dict[str, str]:
    update = rendering.ViewerUpdate(view=view, table=rendering.TableFacts(seats=tuple(SEATS), deck=deck), version=5)
    with translation.override(language):
        return {
            "hand": rendering.render_fragment("hand", rendering.hand_context(update), oob=True),
            "trick": rendering.render_fragment("trick", rendering.trick_context(update), oob=True),
            "seats": rendering.render_fragment("seats", rendering.seats_context(update), oob=True),
        }


def card_tag(face, deck=DECK) -> str:
    return Template("{% load table %}{% card face %}").render(Context({"face": face, "deck": deck}))


def test_the_sprite_has_one_symbol_per_card_of_the_truco_deck_and_a_back_and_every_reference_resolves():
    root = ET.parse(SPRITE).getroot()
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids)), "ids are unique"
    cards = {el.get("id") for el in root.iter(f"{SVG}symbol") if el.get("id", "").startswith("card-")}
    assert cards == {f"card-{code}" for code in CARD_NAMES} | {"card-back"}
    assert len(CARD_NAMES) == 40 and not any(code[:-1] in ("8", "9", "10") for code in CARD_NAMES)
    references = {el.get("href") for el in root.iter(f"{SVG}use")}
    assert references and all(ref.startswith("#") and ref[1:] in ids for ref in references)
    assert not root.findall(f".//{SVG}metadata") and not root.findall(f".//{SVG}text")


def test_the_court_cards_draw_a_court_picture_of_their_own():
    root = ET.parse(SPRITE).getroot()
    symbols = {el.get("id"): el for el in root.iter(f"{SVG}symbol")}

    def pictures(code: str) -> set[str]:
        # What a face draws besides the shared paper, suit pips and rank letters.
        refs = {el.get("href")[1:] for el in symbols[f"card-{code}"].iter(f"{SVG}use")}
        return {ref for ref in refs if ref != "paper" and not re.fullmatch(r"[sr][0-9A-Z]", ref)}

    for code in CARD_NAMES:
        assert bool(pictures(code)) == (code[0] in "QJK"), code


def test_the_sprite_stays_small():
    raw = SPRITE.read_bytes()
    assert len(raw) < 300_000 and len(gzip.compress(raw)) < 100_000


def test_a_pushed_hand_carries_references_to_the_sprite_not_the_art():
    view = engine.seat_view(mineiro_round_two(), 0)
    pushed = fragments(view)
    hand = pushed["hand"]
    assert USE.findall(hand) == ["4C", "3H"]
    for html in pushed.values():
        assert "<path" not in html and "<symbol" not in html
    # Three cards' art would be tens of kilobytes; references are a few hundred bytes.
    assert len(hand.encode()) < 1_600


def test_every_card_is_named_by_its_label_in_the_viewers_language():
    for language in ("en", "pt-br"):
        with translation.override(language):
            for code in CARD_NAMES:
                face = card_face(code)
                html = card_tag(face)
                assert f'role="img" aria-label="{face["label"]}"' in html
                assert USE.findall(html) == [code]
                assert (" red" in html.split('"')[1]) == (code[-1] in "HD")
            back = card_tag(None)
            assert 'aria-label="face-down card"' in back or 'aria-label="carta encoberta"' in back


def test_the_manilhas_are_marked_in_the_hand_the_trick_the_rounds_and_the_legend():
    pushed = fragments(engine.seat_view(mineiro_round_two(), 0))
    hand, trick = pushed["hand"], pushed["trick"]
    assert re.search(r'class="card card-face--classic manilha"[^>]*><svg[^>]*><use href="[^"]*#card-4C"', hand)
    assert re.search(r'class="card card-face--classic red"[^>]*><svg[^>]*><use href="[^"]*#card-3H"', hand)
    legend = trick[trick.index('<div class="vira">') : trick.index("</div>")]
    assert re.findall(r'class="mini-card(?: red)? manilha"[^>]*aria-label="([^"]+)"', legend) == [
        "4 of clubs",
        "7 of hearts",
        "Ace of spades",
        "7 of diamonds",
    ]
    round_one = trick[trick.index('data-round="1"') :]
    assert re.search(r'class="mini-card red manilha"[^>]*><svg[^>]*><use href="[^"]*#card-7D"', round_one)
    assert re.search(r'class="mini-card mine"[^>]*><svg[^>]*><use href="[^"]*#card-KS"', round_one)


def test_a_manilha_played_face_down_is_not_marked():
    # Beto's own view of his 5S face down: its face (his), veiled, and no mark: a face-down card counts for nothing.
    rules = engine.RuleSet(variant="mineiro", seats=2, face_down=True)
    state = engine.new_match(rules, 7, dealer=1, deals=[{"hands": [["KS", "4C", "3H"], ["5S", "7D", "QH"]]}])
    for seat, action in [(0, engine.Action("play", "KS")), (1, engine.Action("play", "5S"))]:
        state, _ = engine.apply(state, seat, action)
    state, _ = engine.apply(state, 0, engine.Action("play", "4C", face_down=True))
    trick = fragments(engine.seat_view(state, 0))["trick"]
    mine = trick[trick.index('data-played-by="0"') :]
    assert '<span class="facedown-own"><span class="card card-face--classic" role="img"' in mine
    assert "manilha" not in mine[: mine.index("</div>")]


def test_a_face_down_card_is_a_back_and_carries_no_face_code():
    state = mineiro_round_two()
    pushed = fragments(engine.seat_view(state, 0))
    trick = pushed["trick"]
    beto = trick[trick.index('data-played-by="1"') : trick.index("</div>", trick.index('data-played-by="1"'))]
    assert '<span class="card back" role="img" aria-label="face-down card"' in beto
    assert USE.findall(beto) == ["back"]
    assert "5S" not in "".join(pushed.values())
    # The others' unplayed cards are backs too, under the viewer's deck image.
    seats = pushed["seats"]
    assert USE.findall(seats) == ["back"] and "--back:url('/static/shop/decks/classic.svg')" in seats
    assert not cards_shown("".join(pushed.values())) - {"4C", "3H", "KS", "7D", "7H", "AS"}


def test_the_leak_scanner_sees_a_face_drawn_only_from_the_sprite():
    # A view that leaked Beto's face-down 5S would draw it as a face: the only trace is the sprite reference,
    # which the scanner must see (a code alone, as in data-card, is not there).
    view = engine.seat_view(mineiro_round_two(), 0)
    view["trick"] = [{**play, "card": "5S", "face_down": False} for play in view["trick"]]
    trick = fragments(view)["trick"]
    assert "#card-5S" in trick and "5S" not in CARD_TOKEN.findall(trick)
    assert "5S" in cards_shown(trick)


def test_a_back_is_the_sprites_back_under_the_decks_own_image():
    night = {"slug": "night", "back_url": "/media/decks/night.png", "face_style": "night"}
    back = card_tag(None, night)
    assert "style=\"--back:url('/media/decks/night.png')\"" in back and USE.findall(back) == ["back"]
    assert "style=" not in card_tag(None, {"face_style": "classic"})  # no image: the sprite's back alone
    assert "card-face--night" in card_tag(card_face("7H"), night)


@pytest.mark.django_db
def test_every_deck_in_the_shop_has_its_face_style_drawn():
    css = DECKS_CSS.read_text()
    styles = set(Item.objects.filter(kind="deck").values_list("face_style", flat=True))
    assert styles >= {"classic", "felt", "night", "carnival"}
    for style in styles:
        rule = re.search(r"\.card-face--" + re.escape(style) + r" \{([^}]*)\}", css)
        assert rule, style
        for prop in ("--card-paper", "--card-edge", "--suit-C", "--suit-H", "--suit-S", "--suit-D"):
            assert prop in rule.group(1), (style, prop)
