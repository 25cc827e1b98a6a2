"""Every page of the site in real Chromium, in pt-BR on a phone and in English on a desktop: one language
at a time (no raw code, no word of the other language), nothing wider than the screen, no console error,
no serious or critical axe-core violation; the header and the Play page fit a phone.

`make screenshots` runs the walk with SCREENSHOTS_DIR set: it also saves a PNG of each page at both
sizes (pt-BR, full resolution) in docs/screenshots/.
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import expect

from accounts import friends
from games import engine
from games.match.rewards import settle_finished_match
from games.match.starting import create_match, seat_plans_against_ai
from games.match.tournaments import start_tournament
from games.models import Match, MatchAnalysis
from rooms import invitations
from rooms import services as room_services
from shop import purchases, wallet
from shop.models import Item
from tests.support.browser import (
    PAGE_WORDS_JS,
    SIZES,
    axe_violations,
    choose_on_the_play_page,
    inside_viewport,
    open_page,
)
from tests.support.friends import befriend
from tests.support.rooms import options as room_options

pytestmark = pytest.mark.browser

SCREENSHOTS_DIR = os.environ.get("SCREENSHOTS_DIR", "")
WALKS = [("pt-BR", "phone"), ("en", "desktop")] + ([("pt-BR", "desktop")] if SCREENSHOTS_DIR else [])

# Words that give the other language away. Game words (Truco, Paulista, Mineiro, vira, manilha) and
# the calls (Truco!, Seis!…) are the same in both languages and are not listed.
ENGLISH_WORDS = (
    "the and your you with sign play coins match wallet shop items easy medium hard reward tournament round "
    "won lost back password account price free history please this that what here player players cards deck "
    "new now more of to is are for on by or it"
).split()
PORTUGUESE_WORDS = (
    "você não para com uma moedas partida partidas jogar entrar sair carteira loja senha conta torneio rodada "
    "mão são também até está seu sua seus suas jogador jogadores cartas baralho nível fácil médio difícil "
    "ganhou perdeu vez agora aqui mais ou pelo pela dos das nenhum nenhuma"
).split()
OTHER_LANGUAGE = {"pt-BR": ENGLISH_WORDS, "en": PORTUGUESE_WORDS}
# snake_case codes (match_reward), Python's None, template syntax left unrendered.
RAW_CODE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\bNone\b|\{\{|\{%")


@pytest.fixture
def player(transactional_db, stocked_shop, stocked_achievements, make_user):
    """A player with something on every page: a finished match, a match in play, a tournament, a purchase."""
    user = make_user("Rafa")
    rules = engine.RuleSet(variant="paulista", seats=2)
    finished = create_match(rules=rules, seats=seat_plans_against_ai(rules, "easy", user=user), bot_level="easy")
    finished.status, finished.winner_side, finished.score = Match.Status.FINISHED, 0, [12, 8]
    finished.finished_at = timezone.now()
    finished.save()
    with transaction.atomic():  # as the move that finishes a match does (row locks on PostgreSQL)
        settle_finished_match(finished, list(finished.seats.all()))
    active = create_match(rules=rules, seats=seat_plans_against_ai(rules, "medium", user=user), bot_level="medium")
    # An analysis giving way to busy tables (issue 34): its page's progress and why it waits.
    analysed = create_match(rules=rules, seats=seat_plans_against_ai(rules, "careful", user=user), bot_level="careful")
    Match.objects.filter(pk=analysed.pk).update(status=Match.Status.FINISHED, winner_side=1, score=[5, 12])
    MatchAnalysis.objects.create(match=analysed, seat=0, total=40, done=12, worlds=192, waiting=True)
    tournament = start_tournament(user, rules)
    wallet.change_balance(user, currency=wallet.COINS, amount=60, reason="tournament_reward")
    wallet.change_balance(user, currency=wallet.GEMS, amount=3, reason="admin_adjustment")
    purchase = purchases.buy(user, Item.objects.get(slug="boina"), idempotency_key=uuid.uuid4().hex)
    # Someone to be friends with, and someone who asked (issue 33); the friend invites Rafa to her room.
    bruna = make_user("Bruna")
    befriend(bruna, user)
    friends.send_request(make_user("Caio"), "Rafa")
    room = room_services.create_room(bruna, room_options(seats=4), is_private=True, name="Mesa da Bruna", password="x1")
    invitations.invite(bruna, room.code, name="Rafa")
    return {
        "user": user,
        "active": active,
        "tournament": tournament,
        "purchase": purchase,
        "finished": finished,
        "analysed": analysed,
        "room": room,
    }


def pages_of(player) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(name, path) of every page: signed in, then signed out."""
    signed_in = [
        ("home", "/"),
        ("play", "/play/"),
        ("table", f"/play/m/{player['active'].public_id}/"),
        ("tournament", f"/play/tournament/{player['tournament'].public_id}/"),
        ("shop", "/shop/"),
        ("shop-item", "/shop/item/boina/"),
        ("shop-purchase", f"/shop/purchases/{player['purchase'].pk}/"),
        ("my-items", "/shop/items/"),
        ("wallet", "/shop/wallet/"),
        ("profile", "/profile/"),
        ("public-profile", "/players/Rafa/"),
        ("public-profile-other", "/players/Caio/"),
        ("friends", "/friends/"),
        ("delete-account", "/profile/delete/"),
        ("password-change", "/accounts/password/change/"),
        ("email", "/accounts/email/"),
        ("sign-out", "/accounts/logout/"),
        ("rooms", "/rooms/"),
        ("room-invited", f"/rooms/r/{player['room'].code}/"),
        ("stats", "/stats/"),
        ("achievements", "/stats/achievements/"),
        ("history", "/play/history/"),
        ("replay", f"/play/m/{player['finished'].public_id}/replay/"),
        ("analysis", f"/play/m/{player['finished'].public_id}/analysis/"),
        ("analysis-waiting", f"/play/m/{player['analysed'].public_id}/analysis/"),
        ("leaderboards", "/leaderboards/"),
        ("privacy", "/privacy/"),
    ]
    signed_out = [
        ("home-guest", "/"),
        ("leaderboards-guest", "/leaderboards/"),
        ("stats-guest", "/stats/"),
        ("play-guest", "/play/"),
        ("sign-in", "/accounts/login/"),
        ("sign-up", "/accounts/signup/"),
        ("password-reset", "/accounts/password/reset/"),
        ("password-reset-done", "/accounts/password/reset/done/"),
    ]
    return signed_in, signed_out


def problems_on(page, language: str, size: str) -> list[str]:
    found = []
    words = page.evaluate(PAGE_WORDS_JS)
    for code in sorted(set(RAW_CODE.findall(words))):
        found.append(f"raw code {code!r}")
    for word in OTHER_LANGUAGE[language]:
        if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", words, re.IGNORECASE):
            found.append(f"other language: {word!r}")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        found.append(f"{overflow}px wider than the {size} screen")
    return found


@pytest.mark.parametrize(("language", "size"), WALKS, ids=[f"{lang}-{size}" for lang, size in WALKS])
def test_every_page_speaks_one_language_fits_the_screen_and_passes_axe(site_server, browser, player, language, size):
    context, page = open_page(browser, site_server, size=size, language=language, user=player["user"])
    errors, report = [], {}
    page.on("console", lambda m: m.type == "error" and errors.append(f"{page.url}: {m.text}"))
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    signed_in, signed_out = pages_of(player)
    for name, path in signed_in + signed_out:
        if name == signed_out[0][0]:
            context.clear_cookies()
        response = page.goto(site_server.url + path)
        assert response.status == 200, f"{path} answered {response.status}"
        expect(page.locator("html")).to_have_attribute("lang", language.lower())
        found = problems_on(page, language, size) + axe_violations(page)
        if found:
            report[path] = found
        if SCREENSHOTS_DIR and language == "pt-BR":
            if name == "table":
                expect(page.locator("[data-connection]")).to_be_hidden()  # the socket's first snapshot is in
            Path(SCREENSHOTS_DIR).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SCREENSHOTS_DIR}/{name}-{size}.png")
    context.close()
    assert report == {}
    assert errors == []


def test_on_a_phone_the_header_is_one_line_and_its_menu_opens_and_closes(site_server, browser, player):
    context, page = open_page(browser, site_server, size="phone", language="pt-BR", user=player["user"])
    page.goto(site_server.url + "/")
    assert page.locator("header.topbar").bounding_box()["height"] <= 60
    balances = page.locator("header [data-nav=wallet]")
    assert inside_viewport(page, balances)
    # 100 + 15 + 60 - 150, + 10 and 50 for the finished match's achievements (first win, no hand lost)
    expect(balances.locator("[data-header-balance=coins]")).to_contain_text("85")
    expect(page.locator("[data-nav=play]")).to_be_hidden()
    toggle = page.locator("[data-action=menu]")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    for hook in ("play", "rooms", "shop", "stats", "leaderboards", "profile", "items"):
        assert inside_viewport(page, page.locator(f"[data-nav={hook}]")), hook
    page.keyboard.press("Escape")
    expect(page.locator("[data-nav=shop]")).to_be_hidden()
    toggle.click()
    page.click("[data-nav=shop]")
    expect(page).to_have_url(re.compile(r"/shop/$"))
    balances.click()
    expect(page).to_have_url(re.compile(r"/shop/wallet/$"))
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_bell_shows_what_is_new_and_its_list_opens_on_screen(site_server, browser, player, size):
    context, page = open_page(browser, site_server, size=size, language="pt-BR", user=player["user"])
    page.goto(site_server.url + "/play/")
    count = page.locator("#notices-count")
    expect(count).to_have_attribute("data-notices-count", "2")  # Bruna's invitation and Caio's request
    assert inside_viewport(page, page.locator("[data-action=notices]"))
    assert page.locator("header.topbar").bounding_box()["height"] <= 60  # still one line with the bell
    page.click("[data-action=notices]")
    expect(count).to_be_hidden()  # opened: seen
    for hook in ("[data-action=invitation-join]", "[data-action=invitation-dismiss]", "[data-action=friend-requests]"):
        assert inside_viewport(page, page.locator(hook)), hook
    expect(page.locator("[data-invitation]")).to_contain_text("Mesa da Bruna")
    if SCREENSHOTS_DIR:
        page.screenshot(path=f"{SCREENSHOTS_DIR}/notices-open-{size}.png")
    page.keyboard.press("Escape")
    expect(page.locator("[data-invitation]")).to_be_hidden()
    context.close()


def test_on_a_desktop_every_link_and_the_balances_share_one_line(site_server, browser, player):
    context, page = open_page(browser, site_server, size="desktop", language="en", user=player["user"])
    page.goto(site_server.url + "/")
    assert page.locator("header.topbar").bounding_box()["height"] <= 60
    expect(page.locator("[data-action=menu]")).to_be_hidden()
    for hook in ("play", "rooms", "shop", "stats", "leaderboards", "profile", "items", "wallet"):
        assert inside_viewport(page, page.locator(f"header [data-nav={hook}]")), hook
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_play_pages_tables_ai_level_and_start_button_fit_without_scrolling(site_server, browser, player, size):
    # The rest is folded under "More options" (its summary on screen too).
    for signed in (False, True):
        user = player["user"] if signed else None
        context, page = open_page(browser, site_server, size=size, language="pt-BR", user=user)
        page.goto(site_server.url + "/play/")
        controls = page.locator(
            ".preset-face, [data-field=bot_level] .choice, [data-more-options] > summary, [data-action=start-match]"
        )
        assert controls.count() == 11  # 4 tables, 5 opponents (the ladder and the careful one), 2 more
        for n in range(controls.count()):
            assert inside_viewport(page, controls.nth(n)), (size, signed, controls.nth(n).inner_text())
        context.close()


def test_quick_play_on_the_home_page_starts_a_match_with_the_last_options(site_server, browser, player):
    context, page = open_page(browser, site_server, size="phone", language="en")
    page.goto(site_server.url + "/play/")
    choose_on_the_play_page(page, variant="mineiro", bot_level="easy")
    page.click("[data-action=start-match]")
    expect(page.locator("#status[data-version]")).to_be_visible()
    page.goto(site_server.url + "/")
    expect(page.locator("[data-quick-play-summary]")).to_have_text("Mineiro · 1 against 1 · AI: Easy")
    assert inside_viewport(page, page.locator("[data-action=quick-play]"))
    page.click("[data-action=quick-play]")
    expect(page.locator("#status[data-version]")).to_be_visible()
    newest = Match.objects.order_by("-id").first()
    assert newest.rules["variant"] == "mineiro" and newest.bot_level == "easy"
    assert Match.objects.filter(rules__variant="mineiro").count() == 2
    context.close()
