"""The Play page starts matches for players and guests; the table page is only for the match's seats."""

import pytest
from django.urls import reverse

from games import engine
from games.engine.bots import NAMED_OPPONENTS, STYLE_LEVELS, TABLE_LEVELS
from games.models import BotLevel, Match, Tournament
from shop.inventory import equip, grant_item
from shop.models import Item
from tests.support.matches import PLAY_FORM

pytestmark = pytest.mark.django_db

FORM = {
    **PLAY_FORM,
    "variant": "mineiro",
    "deck": "clean",
    "seats": "4",
    "bot_level": "hard",
    "face_down": "on",
    "all_tied": "nobody",
    "move_seconds": "60",
}


def test_play_page_offers_every_choice(client):
    # The variant and the seats are chosen together, as one of the four tables (`preset`).
    html = client.get(reverse("games:play")).content.decode()
    for name in (
        "preset",
        "mode",
        "deck",
        "partnership",
        "bot_level",
        "face_down",
        "all_tied",
        "mineiro_style",
        "move_seconds",
    ):
        assert f'name="{name}"' in html


def test_starting_a_match_applies_every_choice_and_opens_the_table(signed_in_client, user):
    response = signed_in_client.post(reverse("games:play"), FORM)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[match.public_id])
    assert (
        match.rules
        == engine.RuleSet(
            variant="mineiro", deck="clean", seats=4, partnership=True, face_down=True, all_tied="nobody"
        ).to_dict()
    )
    assert match.move_seconds == 60 and match.bot_level == "hard"
    seats = list(match.seats.order_by("number"))
    assert seats[0].user == user and all(s.bot_level == "hard" for s in seats[1:])
    page = signed_in_client.get(response["Location"])
    assert page.status_code == 200
    assert f'ws-connect="/ws/match/{match.public_id}/"' in page.content.decode()


def test_the_play_page_offers_the_expert_level_in_both_languages(client, signed_in_client):
    html = client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'value="expert" id="id_bot_level_3" required><span>Expert</span>' in html
    html = client.get(reverse("games:play")).content.decode()  # pt-BR is the site's default
    assert 'value="expert" id="id_bot_level_3" required><span>Especialista</span>' in html
    signed_in_client.post(reverse("games:play"), {**FORM, "bot_level": "expert"})
    match = Match.objects.get()
    assert match.bot_level == "expert"
    assert [s.bot_level for s in match.seats.order_by("number")][1:] == ["expert"] * 3


def test_the_careful_player_is_a_named_opponent_in_both_languages_and_plays_at_the_table(client, signed_in_client):
    html = client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'value="careful" id="id_bot_level_4" required><span>Careful</span>' in html
    html = client.get(reverse("games:play")).content.decode()
    assert 'value="careful" id="id_bot_level_4" required><span>Cauteloso</span>' in html
    signed_in_client.post(reverse("games:play"), {**FORM, "bot_level": "careful"})
    match = Match.objects.get()
    assert [s.bot_level for s in match.seats.order_by("number")][1:] == ["careful"] * 3
    assert "Cauteloso" in signed_in_client.get(reverse("home")).content.decode()


def test_everyone_for_themselves_with_four_seats(signed_in_client):
    signed_in_client.post(reverse("games:play"), {**FORM, "partnership": "no"})
    assert Match.objects.get().rules["partnership"] is False


def test_a_guest_can_play_a_single_match_and_return_to_it(client):
    response = client.post(reverse("games:play"), {**FORM, "seats": "2"})
    assert response.status_code == 302
    assert client.get(response["Location"]).status_code == 200
    seat = Match.objects.get().seats.get(number=0)
    assert seat.user is None and seat.guest_token


def test_a_guest_is_sent_to_sign_in_for_a_tournament(client):
    response = client.post(reverse("games:play"), {**FORM, "mode": "tournament"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Tournament.objects.exists()


def test_a_tournament_opens_its_first_match(signed_in_client, user):
    response = signed_in_client.post(reverse("games:play"), {**FORM, "mode": "tournament"})
    tournament = Tournament.objects.get(user=user)
    assert response["Location"] == reverse("games:table", args=[tournament.matches.get().public_id])


def test_bad_form_values_change_nothing_and_say_why(signed_in_client):
    response = signed_in_client.post(
        reverse("games:play"), {**FORM, "seats": "3", "move_seconds": "5"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.exists()


def test_someone_elses_table_is_404_and_shows_no_cards(client, signed_in_client, make_user):
    signed_in_client.post(reverse("games:play"), FORM)
    match = Match.objects.get()
    client.force_login(make_user("Curioso"))
    response = client.get(reverse("games:table", args=[match.public_id]))
    assert response.status_code == 404
    assert "data-card" not in response.content.decode()


def test_admin_lists_matches_with_players_and_shows_the_event_log(client, signed_in_client, make_user):
    signed_in_client.post(reverse("games:play"), FORM)
    match = Match.objects.get()
    admin = make_user("Chefe", is_staff=True, is_superuser=True)
    client.force_login(admin)
    listing = client.get(reverse("admin:games_match_changelist")).content.decode()
    assert match.public_id in listing and "Ana" in listing
    detail = client.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    assert "match_started" in detail
    assert '"stock"' not in detail  # the engine state (deck order) is not shown even to staff


def test_the_table_uses_the_players_equipped_deck_and_avatar(signed_in_client, user):
    night = Item.objects.get(slug="night")
    grant_item(user, night, how="gift")
    equip(user, night)
    signed_in_client.post(reverse("games:play"), {**FORM, "seats": "2"})
    html = signed_in_client.get(reverse("games:table", args=[Match.objects.get().public_id])).content.decode()
    assert "card-face--night" in html
    assert night.image_url in html  # the card backs of the other seats


def test_the_play_page_offers_the_table_levels_and_the_named_opponent_but_no_other_panel_bot(signed_in_client):
    # The style bots (issue 15) are measuring opponents for the arena; only the named ones (issue 32's
    # careful player) are a choice at a table.
    html = signed_in_client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for level in set(STYLE_LEVELS) - set(NAMED_OPPONENTS):
        assert f'value="{level}"' not in html
    assert 'value="hard"' in html and 'value="careful"' in html and "Careful: bets like rule-based truco bots" in html
    assert set(BotLevel.values) <= set(TABLE_LEVELS)
    response = signed_in_client.post(reverse("games:play"), {**FORM, "bot_level": "maniac"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.exists()
