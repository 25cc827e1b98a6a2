"""The profile page changes display name and country; the public profile shows them."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_profile_change_saves_display_name_and_country(signed_in_client, user):
    response = signed_in_client.post(reverse("accounts:profile"), {"display_name": "Ana_Paula", "country": "PT"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.username == "Ana_Paula"
    assert user.profile.country.code == "PT"


def test_profile_page_requires_sign_in(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_public_profile_shows_name_flag_and_country(client, user):
    user.profile.country = "BR"
    user.profile.save()
    html = client.get(reverse("accounts:public_profile", args=["ana"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ana" in html
    assert 'data-country="BR"' in html
    assert "Brazil" in html
    assert "/static/flags/br.gif" in html


def test_public_profile_of_unknown_player_is_404(client):
    assert client.get(reverse("accounts:public_profile", args=["nobody"])).status_code == 404


def test_public_profile_never_shows_the_email(client, user):
    html = client.get(reverse("accounts:public_profile", args=["Ana"])).content.decode()
    assert user.email not in html
