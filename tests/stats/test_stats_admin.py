"""The admin: statistics read-only with a recompute action, achievements editable, bad codes refused."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from stats.models import Achievement, PlayerStats

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("Gerente", is_staff=True, is_superuser=True, password=None))
    return client


def achievement_form(**changes):
    data = {
        "code": "first_win",
        "name_en": "First blood",
        "name_pt_br": "Primeiro sangue",
        "description_en": "Win a match.",
        "description_pt_br": "Vença uma partida.",
        "icon": "star",
        "tier": "gold",
        "coin_reward": "25",
        "active": "on",
        "position": "0",
    }
    return {**data, **changes}


def test_staff_edit_an_achievement_in_both_languages(staff_client):
    achievement = Achievement.objects.get(code="first_win")
    response = staff_client.post(reverse("admin:stats_achievement_change", args=[achievement.pk]), achievement_form())
    assert response.status_code == 302
    achievement.refresh_from_db()
    assert (achievement.name_en, achievement.name_pt_br, achievement.tier, achievement.coin_reward) == (
        "First blood",
        "Primeiro sangue",
        "gold",
        25,
    )


def test_an_achievement_without_a_rule_in_code_is_refused_with_a_clear_message(staff_client):
    before = Achievement.objects.count()
    response = staff_client.post(
        reverse("admin:stats_achievement_add"), achievement_form(code="win_blindfolded"), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200 and "No rule in the code earns" in response.content.decode()
    assert Achievement.objects.count() == before
    duplicate = staff_client.post(reverse("admin:stats_achievement_add"), achievement_form())
    assert duplicate.status_code == 200 and Achievement.objects.count() == before  # the code is unique


def test_statistics_are_read_only_and_the_recompute_action_rebuilds_them(staff_client, user, play_match):
    play_match(user, seed=5, score=[11, 0])
    stats = PlayerStats.objects.get(user=user)
    good = stats.counters
    PlayerStats.objects.filter(pk=stats.pk).update(counters={"played": 500})
    assert staff_client.get(reverse("admin:stats_playerstats_changelist")).status_code == 200
    assert staff_client.get(reverse("admin:stats_playerstats_add")).status_code == 403
    staff_client.post(reverse("admin:stats_playerstats_change", args=[stats.pk]), {"counters": "{}"})
    assert PlayerStats.objects.get(pk=stats.pk).counters == {"played": 500}
    response = staff_client.post(
        reverse("admin:stats_playerstats_changelist"),
        {"action": "recompute_statistics", ACTION_CHECKBOX_NAME: [stats.pk]},
    )
    assert response.status_code == 302
    assert PlayerStats.objects.get(pk=stats.pk).counters == good
