"""A real player in Chromium: sign in, buy an avatar with coins, use it, see it on the profile."""

import re

import pytest
from playwright.sync_api import expect

from shop import wallet
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def test_buy_an_avatar_with_coins_equip_it_and_see_it_on_the_profile(stocked_shop, live_daphne, page, make_user):
    player = make_user("Compradora")
    wallet.change_balance(player, currency=wallet.COINS, amount=60, reason="match_reward")  # four wins: 160 coins
    page.goto(f"{live_daphne.url}/accounts/login/")
    page.fill("input[name=login]", "Compradora")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("[data-nav=profile]")).to_contain_text("Compradora")

    page.click("[data-nav=shop]")
    page.click("[data-item=boina] a")
    page.click("[data-action=confirm-purchase]")
    expect(page.locator("[data-status=completed]")).to_be_visible()
    expect(page.locator("[data-balance=coins] dd")).to_have_text("10")
    expect(page.locator("[data-header-balance=coins]")).to_contain_text("10")

    page.click("[data-action=go-to-items]")
    page.locator("[data-item=boina] [data-action=equip]").click()
    expect(page.locator("[data-item=boina] [data-equipped=true]")).to_be_visible()

    page.click("[data-nav=profile]")
    expect(page.locator("main img.avatar").first).to_have_attribute("src", re.compile(r"shop/avatars/boina\.svg$"))
    expect(page.locator("[data-nav=profile] img")).to_have_attribute("src", re.compile(r"boina\.svg$"))
    assert wallet.balance(player, currency=wallet.COINS) == 10
