"""A guest's matches follow them into the account they sign up for (or sign in to), through allauth's real views."""

import pytest
from django.urls import reverse

from games.models import Match
from shop.models import LedgerEntry
from tests.conftest import PASSWORD
from tests.support.matches import PLAY_FORM, play_to_the_end

pytestmark = pytest.mark.django_db


def play_as_guest(client) -> Match:
    assert client.post(reverse("games:play"), PLAY_FORM).status_code == 302
    return Match.objects.latest("created_at")


def sign_up(client, username="Novata"):
    response = client.post(
        reverse("account_signup"),
        {
            "email": f"{username.lower()}@example.com",
            "username": username,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302


def test_signing_up_after_a_finished_match_claims_the_seat_and_pays_the_result(client, django_user_model):
    match = play_as_guest(client)
    play_to_the_end(match)
    sign_up(client)
    user = django_user_model.objects.get(username="Novata")
    seat = match.seats.get(number=0)
    assert (seat.user, seat.display_name, seat.guest_token) == (user, "Novata", "")
    match.refresh_from_db()
    paid = LedgerEntry.objects.get(wallet__user=user, reason="match_reward")
    assert paid.amount == (15 if match.won_by(0) else 2)
    assert paid.reference == f"match:{match.public_id}"


def test_signing_in_claims_a_match_in_progress_and_its_table_opens_for_the_account(client, user):
    match = play_as_guest(client)
    response = client.post(reverse("account_login"), {"login": user.email, "password": PASSWORD})
    assert response.status_code == 302
    assert match.seats.get(number=0).user == user
    assert client.get(reverse("games:table", args=[match.public_id])).status_code == 200
    assert not LedgerEntry.objects.filter(wallet__user=user, reason="match_reward").exists()  # nothing to pay yet


def test_another_browsers_guest_seats_are_not_claimed(client, user):
    match = play_as_guest(client)
    client.logout()  # a fresh session: the guest token is gone with the old one
    client.post(reverse("account_login"), {"login": user.email, "password": PASSWORD})
    seat = match.seats.get(number=0)
    assert seat.user is None and seat.guest_token
