"""Every page's header: balances linking to the wallet for a signed-in player; the favicon answers."""

import pytest
from django.urls import reverse

from shop import wallet

pytestmark = pytest.mark.django_db


def test_header_shows_the_three_balances_linking_to_the_wallet(signed_in_client, user):
    wallet.change_balance(user, currency=wallet.GEMS, amount=7, reason="admin_adjustment")
    html = signed_in_client.get(reverse("games:play")).content.decode()
    header = html.split('<header class="topbar has-balances">')[1].split("</header>")[0]
    link = header.split('<a class="header-balances"')[1].split("</a>")[0]
    assert f'href="{reverse("shop:wallet")}"' in link and 'data-nav="wallet"' in link
    assert 'data-header-balance="coins"' in link and "100" in link.split('data-header-balance="coins"')[1]
    assert (
        "5" in link.split('data-header-balance="blue_coins"')[1] and "7" in link.split('data-header-balance="gems"')[1]
    )


def test_guests_get_no_balances_but_sign_in_and_sign_up(client):
    html = client.get(reverse("home")).content.decode()
    assert "header-balances" not in html
    assert 'data-nav="login"' in html and 'data-nav="signup"' in html


def test_favicon_ico_leads_to_the_sites_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("/static/favicon.svg")
    assert '<link rel="icon" href="/static/favicon.svg"' in client.get(reverse("home")).content.decode()
