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


# --- Unicode: one canonical spelling, no look-alikes (issue 9) ---------------------------------

SIGNUP = {"password1": PASSWORD, "password2": PASSWORD}


def signup(client, name, email="new@example.com"):
    return client.post(
        reverse("account_signup"), {"email": email, "username": name, **SIGNUP}, HTTP_ACCEPT_LANGUAGE="en"
    )


def rename(client, name):
    return client.post(reverse("accounts:profile"), {"display_name": name, "country": ""}, HTTP_ACCEPT_LANGUAGE="en")


# Signs that fold to a letter another name already uses: the database's lower() saw them as equal, the
# old check (upper()) did not, and the insert failed with IntegrityError (HTTP 500).
CASE_FOLDING = [("kelvin", "\u212aelvin"), ("Ångstrom", "\u212bngstrom"), ("Ωμέγα", "\u2126μέγα")]
LOOKALIKES = [
    ("Admin", "Ａｄｍｉｎ", "already taken"),  # full-width: NFKC makes it "Admin"
    ("Admin", "𝐀dmin", "already taken"),  # mathematical bold A
    ("Admin", "\u0410dmin", "mixes alphabets"),  # Cyrillic А among Latin letters
    ("Admin", "\u0391dmin", "mixes alphabets"),  # Greek Α among Latin letters
    ("Pepe", "\u0420\u0435\u0440\u0435", "looks too much like"),  # all Cyrillic, reads "Pepe"
    ("player1", "playerl", "looks too much like"),
    ("B0b", "bob", "looks too much like"),
]


@pytest.mark.parametrize("existing, name", CASE_FOLDING)
def test_signup_with_a_case_folding_sign_is_a_name_taken_error(client, english, make_user, existing, name):
    make_user(existing)
    response = signup(client, name)
    assert response.status_code == 200
    assert "That display name is already taken." in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.parametrize("existing, name", CASE_FOLDING)
def test_rename_to_a_case_folding_sign_is_a_name_taken_error(
    signed_in_client, english, make_user, user, existing, name
):
    make_user(existing)
    response = rename(signed_in_client, name)
    assert response.status_code == 200
    assert "That display name is already taken." in response.content.decode()
    user.refresh_from_db()
    assert user.username == "Ana"


@pytest.mark.parametrize("existing, name, error", LOOKALIKES)
def test_signup_refuses_a_lookalike_of_an_existing_name(client, english, make_user, existing, name, error):
    make_user(existing)
    response = signup(client, name)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.parametrize("existing, name, error", LOOKALIKES)
def test_rename_refuses_a_lookalike_of_an_existing_name(
    signed_in_client, english, make_user, user, existing, name, error
):
    make_user(existing)
    response = rename(signed_in_client, name)
    assert error in response.content.decode()
    user.refresh_from_db()
    assert user.username == "Ana"


def test_mixed_lookalike_alphabets_are_refused_even_when_no_such_name_exists(client, english):
    response = signup(client, "\u0420aulo")  # Cyrillic Р, Latin "aulo"
    assert "mixes alphabets" in response.content.decode()
    assert not User.objects.exists()


def test_names_are_stored_in_their_canonical_form(client):
    assert signup(client, "Ｚéca").status_code == 302
    assert User.objects.get().username == "Zéca"


@pytest.mark.parametrize("name", ["Иван", "Δημήτρης", "João_99", "Zéca"])
def test_names_in_one_alphabet_are_welcome(client, name):
    assert signup(client, name).status_code == 302


def test_renaming_to_a_lookalike_of_ones_own_name_is_allowed(signed_in_client, user):
    assert rename(signed_in_client, "ANA").status_code == 302
    user.refresh_from_db()
    assert user.username == "ANA"


def test_a_signup_that_loses_the_race_for_a_name_gets_a_message_not_an_error(client, english, make_user, monkeypatch):
    # Both forms passed the check before either saved: the database's constraint decides.
    make_user("kelvin")
    monkeypatch.setattr("accounts.adapter.display_name_unavailable", lambda name: None)
    response = signup(client, "KELVIN")
    assert response.status_code == 302
    assert response["Location"] == reverse("account_signup")
    assert "taken a moment ago" in client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert User.objects.count() == 1


def test_a_rename_that_loses_the_race_for_a_name_is_a_form_error(
    signed_in_client, english, make_user, user, monkeypatch
):
    make_user("kelvin")
    monkeypatch.setattr("accounts.forms.display_name_unavailable", lambda name, exclude_pk: None)
    response = rename(signed_in_client, "\u212aelvin")
    assert response.status_code == 200
    assert "That display name is already taken." in response.content.decode()
    user.refresh_from_db()
    assert user.username == "Ana"


def test_the_database_keeps_one_player_per_lookalike_key(make_user):
    make_user("Pepe")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="\u0420\u0435\u0440\u0435", email="other@example.com", password=PASSWORD)
