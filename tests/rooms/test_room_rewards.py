"""What a room match pays (issue 11 item 9): competitive rooms only, 50/5 won and 10/2 lost by default;
nothing for anyone when a player left before the end; no rank points when two people at the table
share an address; practice pays nothing. Paid once. The pages say the truth."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from games.engine import RuleSet, side_of
from games.match import moves
from games.match.rewards import settle_finished_match
from games.models import Match, RewardSettings, Seat
from games.selectors import reward_amounts, reward_note
from rooms import services
from rooms.models import Room, RoomSeat
from shop.models import LedgerEntry
from stats.services import rank_points
from tests.support.matches import pushed_fragments, win_match_for
from tests.support.rewards import coins_without_achievements
from tests.support.rooms import options
from tests.support.threads import run_in_threads


def room_match(person, *, mode=Room.Mode.COMPETITIVE, ips=("10.0.0.1", "10.0.0.2")) -> tuple[Match, list]:
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(mode=mode), ip=ips[0])
    services.join_room(bia, room.code, ip=ips[1])
    room.refresh_from_db()
    return room.match, [ana, bia]  # type: ignore[return-value]  # the full room started it


def finish(match: Match, winner_side: int = 0) -> Match:
    win_match_for(match, side=winner_side)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.rewards_credited
    return match


def paid(user) -> tuple[int, int]:
    return coins_without_achievements(user), rank_points(user)


@pytest.mark.django_db
def test_a_competitive_room_pays_the_winner_50_coins_and_5_points_and_the_loser_10_and_2(person):
    match, (ana, bia) = room_match(person)
    before = {u: coins_without_achievements(u) for u in (ana, bia)}
    finish(match, winner_side=0)
    assert coins_without_achievements(ana) - before[ana] == 50 and rank_points(ana) == 5
    assert coins_without_achievements(bia) - before[bia] == 10 and rank_points(bia) == 2
    keys = set(LedgerEntry.objects.filter(reason="match_reward").values_list("idempotency_key", flat=True))
    assert keys == {f"match:{match.public_id}:seat:0", f"match:{match.public_id}:seat:1"}


@pytest.mark.django_db
def test_the_room_amounts_are_the_staff_settings(person):
    RewardSettings.objects.update_or_create(
        pk=1,
        defaults={"room_win_coins": 70, "room_win_rank_points": 7, "room_loss_coins": 1, "room_loss_rank_points": 0},
    )
    match, (ana, bia) = room_match(person)
    before = {u: coins_without_achievements(u) for u in (ana, bia)}
    finish(match, winner_side=1)
    assert coins_without_achievements(bia) - before[bia] == 70 and rank_points(bia) == 7
    assert coins_without_achievements(ana) - before[ana] == 1 and rank_points(ana) == 0


@pytest.mark.django_db
def test_a_practice_room_pays_nothing_and_ranks_nobody(person):
    match, people = room_match(person, mode=Room.Mode.PRACTICE)
    before = [coins_without_achievements(u) for u in people]
    finish(match)
    assert [coins_without_achievements(u) for u in people] == before
    assert [rank_points(u) for u in people] == [0, 0]
    assert not LedgerEntry.objects.filter(reason="match_reward").exists()
    assert reward_note(match) == "practice"
    assert 'data-reward-note="practice"' in pushed_fragments(match, 0)["status"]


@pytest.mark.django_db
def test_nobody_is_rewarded_when_a_player_left_before_the_end(person):
    match, (ana, bia) = room_match(person)
    before = [coins_without_achievements(u) for u in (ana, bia)]
    # What the presence part does when someone leaves or stays away past the grace period.
    Seat.objects.filter(match=match, number=1).update(left_at=timezone.now())
    finish(match, winner_side=0)
    assert [coins_without_achievements(u) for u in (ana, bia)] == before  # the winner neither
    assert [rank_points(u) for u in (ana, bia)] == [0, 0]
    assert reward_amounts(match, won=True) == (0, 0) and reward_note(match) == "player_left"
    status = pushed_fragments(match, 0)["status"]
    assert 'data-reward-note="player_left"' in status and "data-rewards " not in status
    assert 'data-action="play-again-room"' not in status  # not the same people any more


@pytest.mark.django_db
def test_a_player_who_goes_after_the_end_takes_nobodys_reward(person):
    match, (ana, _bia) = room_match(person)
    finish(match, winner_side=0)
    Seat.objects.filter(match=match, number=1).update(left_at=match.finished_at + timedelta(seconds=1))
    match.refresh_from_db()
    assert reward_note(match) == "" and reward_amounts(match, won=True) == (50, 5)


@pytest.mark.django_db
def test_two_people_from_one_address_get_their_coins_but_no_rank_points(person):
    match, (ana, bia) = room_match(person, ips=("203.0.113.9", "203.0.113.9"))
    assert list(Seat.objects.filter(match=match).values_list("ip_address", flat=True)) == ["203.0.113.9"] * 2
    before = {u: coins_without_achievements(u) for u in (ana, bia)}
    finish(match, winner_side=0)
    assert coins_without_achievements(ana) - before[ana] == 50 and coins_without_achievements(bia) - before[bia] == 10
    assert rank_points(ana) == rank_points(bia) == 0
    status = pushed_fragments(match, 0)["status"]
    assert 'data-reward-coins="50"' in status and 'data-reward-rank-points="0"' in status
    assert 'data-reward-note="same_address"' in status


@pytest.mark.django_db
def test_bots_have_no_address_so_a_room_with_bots_ranks_its_people(person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(
        ana, options(seats=4), is_private=True, name="Amigos", password="segredo1", ip="10.0.0.1"
    )
    services.join_room(bia, room.code, password="segredo1", ip="10.0.0.2", number=2)
    services.fill_with_bots_and_start(ana, room.code, "easy")
    room.refresh_from_db()
    match = room.match
    assert reward_note(match) == ""
    finish(match, winner_side=side_of(RuleSet.from_dict(match.rules), 0))
    assert rank_points(ana) == rank_points(bia) == 5


@pytest.mark.django_db
def test_the_history_says_what_a_room_match_paid_and_why_not(client, person):
    match, (ana, bia) = room_match(person, ips=("10.9.9.9", "10.9.9.9"))
    finish(match, winner_side=0)
    client.force_login(ana)
    html = client.get(reverse("games:history"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    row = html.split(f'data-history-match="{match.public_id}"')[1].split("</li>")[0]
    assert "+50 coins, +0 rank points" in row and 'data-reward-note="same_address"' in row
    assert "No rank points: two players at the table share an internet address." in row


@pytest.mark.parametrize(
    "trusted, expected", [(0, "127.0.0.1"), (1, "198.51.100.7")], ids=["no-trusted-proxy", "one-trusted-proxy"]
)
@pytest.mark.django_db
def test_the_seat_address_reads_x_forwarded_for_only_behind_trusted_proxies(
    client, person, settings, trusted, expected
):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = trusted
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(), ip="10.0.0.1")
    client.force_login(bia)
    response = client.post(
        reverse("rooms:join", kwargs={"code": room.code}),
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="198.51.100.7",
    )
    assert response.status_code == 302
    assert RoomSeat.objects.get(room=room, user=bia).ip_address == expected
    room.refresh_from_db()
    assert Seat.objects.get(match=room.match, number=1).ip_address == expected  # copied when the match starts


@pytest.mark.django_db
def test_a_forged_x_forwarded_for_cannot_dodge_the_same_address_rule(client, person, settings):
    # Without a trusted proxy the header is ignored: two accounts on one machine stay one address.
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    ana, bia = person("Ana"), person("Bia")
    client.force_login(ana)
    client.post(reverse("rooms:create"), {**CREATE_FORM}, REMOTE_ADDR="192.0.2.5", HTTP_X_FORWARDED_FOR="10.1.1.1")
    room = Room.objects.get()
    client.force_login(bia)
    client.post(
        reverse("rooms:join", kwargs={"code": room.code}), REMOTE_ADDR="192.0.2.5", HTTP_X_FORWARDED_FOR="10.2.2.2"
    )
    room.refresh_from_db()
    assert reward_note(room.match) == "same_address"


CREATE_FORM = {
    "visibility": "public",
    "variant": "paulista",
    "table": "2",
    "deck": "dirty",
    "move_seconds": "99",
    "mode": "competitive",
    "all_tied": "dealer",
    "face_down": "off",
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite serialises every writer with one file lock: no row-lock race"
)
def test_two_settles_at_once_pay_each_person_exactly_once(person, monkeypatch):
    match, (ana, bia) = room_match(person)
    # Finish the match without settling it, then settle it from two connections at once, each as the
    # move service does: inside a transaction that locked the match row.
    with monkeypatch.context() as patched:
        patched.setattr(moves, "settle_finished_match", lambda match, seats: None)
        win_match_for(match, side=0)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.rewards_credited
    before = {u: coins_without_achievements(u) for u in (ana, bia)}

    def settle(_n):
        with transaction.atomic():
            locked = Match.objects.select_for_update().get(pk=match.pk)
            settle_finished_match(locked, list(locked.seats.all()))

    _results, errors = run_in_threads(2, settle)
    assert errors == []
    assert coins_without_achievements(ana) - before[ana] == 50 and rank_points(ana) == 5
    assert coins_without_achievements(bia) - before[bia] == 10 and rank_points(bia) == 2
    assert LedgerEntry.objects.filter(reason="match_reward").count() == 2


@pytest.mark.django_db
def test_the_lobby_and_the_create_page_say_what_a_room_pays_from_the_staff_settings(client, person):
    amounts = {"room_win_coins": 60, "room_win_rank_points": 6, "room_loss_coins": 12, "room_loss_rank_points": 3}
    RewardSettings.objects.update_or_create(pk=1, defaults=amounts)
    client.force_login(person("Ana"))
    for url in (reverse("rooms:lobby"), reverse("rooms:create")):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "A competitive room pays 60 coins and 6 rank points for a win, 12 coins and 3 rank points" in html
        assert "nothing to anyone if a player leaves before the end" in html
        assert "Practice rooms pay nothing." in html


@pytest.mark.django_db
def test_staff_edit_the_room_rewards_beside_the_other_reward_settings(admin_client):
    RewardSettings.current()
    html = admin_client.get(reverse("admin:games_rewardsettings_change", args=[1])).content.decode()
    assert 'name="single_win_coins"' in html and 'name="tournament_win_coins"' in html
    for field in ("room_win_coins", "room_win_rank_points", "room_loss_coins", "room_loss_rank_points"):
        assert f'name="{field}"' in html
    assert "Sala competitiva (pessoas)" in html  # the admin speaks the site's default language
