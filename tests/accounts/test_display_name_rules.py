"""Every display-name rule, each with its own clear error, at sign-up and on the profile page."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

CASES = [
    ("ab", "at least 3 characters"),
    ("a" * 21, "at most 20 characters"),
    ("two words", "only letters, digits"),
    ("bad!name", "only letters, digits"),
    ("dot.name", "only letters, digits"),
]


@pytest.fixture
def english(settings):
    settings.LANGUAGE_CODE = "en"


@pytest.mark.parametrize("name, error", CASES)
def test_signup_refuses_bad_display_name_with_its_error(client, english, name, error):
    response = client.post(
        reverse("account_signup"),
        {"email": "x@example.com", "username": name, "password1": PASSWORD, "password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not User.objects.filter(email="x@example.com").exists()


def test_signup_refuses_a_taken_display_name_ignoring_case(client, english, make_user):
    make_user("Carlos")
    response = client.post(
        reverse("account_signup"),
        {"email": "c2@example.com", "username": "cARLOS", "password1": PASSWORD, "password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "already" in response.content.decode()
    assert User.objects.filter(username__iexact="carlos").count() == 1


@pytest.mark.parametrize("name", ["Zéca", "João_99", "ana-maria", "abc", "a" * 20])
def test_valid_display_names_are_accepted(signed_in_client, name):
    response = signed_in_client.post(reverse("accounts:profile"), {"display_name": name, "country": ""})
    assert response.status_code == 302
    assert User.objects.filter(username=name).exists()


@pytest.mark.parametrize("name, error", CASES)
def test_profile_refuses_bad_display_name_with_its_error(signed_in_client, english, user, name, error):
    response = signed_in_client.post(
        reverse("accounts:profile"), {"display_name": name, "country": "BR"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert error in response.content.decode()
    user.refresh_from_db()
    assert user.username == "Ana"


def test_profile_refuses_another_players_name_ignoring_case(signed_in_client, english, make_user, user):
    make_user("Pedro")
    response = signed_in_client.post(
        reverse("accounts:profile"), {"display_name": "PEDRO", "country": ""}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "That display name is already taken." in response.content.decode()
    user.refresh_from_db()
    assert user.username == "Ana"


def test_database_refuses_names_differing_only_in_case(make_user):
    make_user("Luna")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="LUNA", email="other@example.com", password=PASSWORD)
