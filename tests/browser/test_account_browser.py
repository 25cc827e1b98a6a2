"""A real Chromium signs up, changes country and signs out against a live daphne."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def test_sign_up_change_country_and_sign_out(live_daphne, page: Page):
    page.goto(f"{live_daphne.url}/accounts/signup/")
    page.fill("input[name=email]", "navegador@example.com")
    page.fill("input[name=username]", "Navegador")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("[data-nav=profile]")).to_contain_text("Navegador")

    page.click("[data-nav=profile]")
    page.select_option("select[name=country]", "BR")
    page.click("[data-action=save-profile]")
    expect(page.locator(".messages")).to_be_visible()
    assert User.objects.get(username="Navegador").profile.country.code == "BR"

    page.goto(f"{live_daphne.url}/players/Navegador/")
    expect(page.locator("[data-country=BR]")).to_be_visible()

    page.click("[data-action=sign-out]")
    expect(page.locator("[data-nav=profile]")).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile("Sign up|Cadastr", re.I))).to_be_visible()


def test_language_switch_changes_the_interface_language(live_daphne, page: Page):
    page.goto(f"{live_daphne.url}/")
    page.select_option("#language-select", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("[data-nav=play]")).to_have_text("Play")
    page.select_option("#language-select", "pt-br")
    expect(page.locator("html")).to_have_attribute("lang", "pt-br")
    expect(page.locator("[data-nav=play]")).to_have_text("Jogar")
