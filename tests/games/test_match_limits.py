"""One person (an account, a guest's browser, an address) cannot start matches without end, and a match
nobody plays ends by itself: its clock must not cost the server forever."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Match, MatchEvent
from shop.models import LedgerEntry
from stats.models import RankPointAward
from tests.support.matches import PLAY_FORM, act, human_turn_action, play_until_human_turn, pushed_fragments, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _limits(settings):
    settings.GAMES_MAX_ACTIVE_MATCHES = 3
    settings.GAMES_STARTS_PER_IP = 10
    settings.GAMES_ABANDON_AFTER_MISSED_TURNS = 3


def start(client, **extra):
    return client.post(reverse("games:play"), {**PLAY_FORM, **extra})


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def test_a_player_may_have_three_matches_in_progress_and_is_told_why_not_a_fourth(signed_in_client, user):
    english(signed_in_client)
    for _ in range(3):
        assert start(signed_in_client).status_code == 302
    refused = start(signed_in_client)
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "You already have 3 matches in progress" in page
    assert page.count('data-nav="resume-match"') == 3  # and where to find them
    assert Match.objects.filter(seats__user=user).count() == 3
    # A tournament is a match too.
    assert start(signed_in_client, mode="tournament").status_code == 429


def test_the_refusal_is_in_portuguese_on_a_portuguese_page(signed_in_client):
    signed_in_client.cookies["django_language"] = "pt-br"
    for _ in range(3):
        start(signed_in_client)
    page = start(signed_in_client).content.decode()
    assert "Você já tem 3 partidas em andamento" in page


def test_a_finished_or_abandoned_match_frees_its_place(signed_in_client, user):
    for _ in range(3):
        start(signed_in_client)
    Match.objects.filter(pk=Match.objects.filter(seats__user=user).first().pk).update(status=Match.Status.ABANDONED)
    assert start(signed_in_client).status_code == 302


def test_a_guest_browser_has_the_same_cap(client):
    for _ in range(3):
        assert start(client).status_code == 302
    refused = start(client)
    assert refused.status_code == 429
    assert refused.content.decode().count('data-nav="resume-match"') == 3
    # Another browser is another guest.
    assert start(Client()).status_code == 302


def test_one_address_may_start_ten_matches_per_window_whatever_its_cookies(settings):
    started = [start(Client(REMOTE_ADDR="203.0.113.7")).status_code for _ in range(12)]
    assert started == [302] * 10 + [429] * 2
    assert Match.objects.count() == 10
    page = start(english(Client(REMOTE_ADDR="203.0.113.7"))).content.decode()
    assert "Too many matches were started from your network" in page
    # Another address is not affected.
    assert start(Client(REMOTE_ADDR="198.51.100.1")).status_code == 302


def run_out_the_clock(match) -> None:
    """The sweeper acts once the person's clock has run out."""
    match.refresh_from_db()
    assert sweep(now=match.deadline + timedelta(seconds=1)) >= 1


def test_a_match_whose_player_misses_three_turns_in_a_row_is_abandoned_and_pays_nothing(start_match, user):
    match = start_match(user)
    play_until_human_turn(match)
    for missed in (1, 2):
        run_out_the_clock(match)
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE and match.missed_turns == missed
        play_until_human_turn(match)
    run_out_the_clock(match)
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.winner_side == 1 and match.deadline is None  # the person's side lost; no clock runs
    assert MatchEvent.objects.filter(match=match, data__type="match_abandoned", data__reason="missed_turns").exists()
    assert not LedgerEntry.objects.filter(reference=f"match:{match.public_id}").exists()
    assert not RankPointAward.objects.filter(user=user).exists()
    assert sweep(now=timezone.now() + timedelta(hours=1)) == 0  # nothing left for the sweeper
    # The table says so, and offers no move.
    fragments = pushed_fragments(match, 0)
    assert "data-abandoned-match" in fragments["status"]
    assert 'data-action="play"' not in fragments["hand"] + fragments["actions"]


def test_a_move_of_the_players_own_resets_the_missed_turns(start_match, user):
    match = start_match(user)
    play_until_human_turn(match)
    for _ in range(2):
        run_out_the_clock(match)
        play_until_human_turn(match)
    match.refresh_from_db()
    act(match.public_id, 0, human_turn_action(match), match.version)
    match.refresh_from_db()
    assert match.missed_turns == 0
    play_until_human_turn(match)
    run_out_the_clock(match)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_an_abandoned_tournament_stage_loses_the_tournament(signed_in_client, user):
    start(signed_in_client, mode="tournament")
    match = Match.objects.get(seats__user=user)
    for _ in range(3):
        play_until_human_turn(match)
        run_out_the_clock(match)
    match.refresh_from_db()
    match.tournament.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.tournament.status == "lost"


def test_behind_a_proxy_the_players_address_is_counted_not_the_proxys(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    settings.GAMES_STARTS_PER_IP = 2

    def via_proxy(player_address: str):
        return start(Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=player_address))

    assert [via_proxy("203.0.113.7").status_code for _ in range(3)] == [302, 302, 429]
    assert via_proxy("198.51.100.1").status_code == 302  # another player behind the same proxy
