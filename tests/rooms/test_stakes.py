"""Stakes in coins (issue 12 item 2): nobody sits without covering the stake; each person's stake is
held when the match starts; the winners share the pot less the house's 25 % (remainders to the house);
an annulment gives the stakes back except to a person who left; an abandoner's side loses its stakes."""

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from games.match import moves
from games.match.stakes import settle_stakes
from games.models import Match, Seat
from rooms import again, annulment, selectors, services
from rooms.models import PlayAgain, Room
from shop import wallet
from shop.models import LedgerEntry
from tests.support.matches import win_match_for
from tests.support.rooms import options
from tests.support.stakes import house_coins, set_coins, set_stake, stake_flow


def coins(user) -> int:
    return wallet.balance(user, currency=wallet.COINS)


def staked_match(person, stake: int, *, seats=2, start_coins=500, names=("Ana", "Bia", "Caio", "Duda")):
    people = [person(name) for name in names[:seats]]
    for user in people:
        set_coins(user, start_coins)
    room = services.create_room(people[0], options(seats=seats, partnership=True if seats == 4 else None))
    set_stake(people[0], room, stake)
    for user in people[1:]:
        services.join_room(user, room.code)
    room.refresh_from_db()
    assert room.match is not None
    return room, room.match, people


def finish(match: Match, side: int) -> Match:
    win_match_for(match, side=side)
    match.refresh_from_db()
    return match


def rewards_of(user) -> int:
    """Coins the match reward and achievements paid (minted on purpose; not part of the pot)."""
    lines = LedgerEntry.objects.filter(wallet__user=user, reason__in=("match_reward", "achievement_reward"))
    return sum(lines.values_list("amount", flat=True))


@pytest.fixture
def client():
    """A browser that reads English (the site's default is Brazilian Portuguese)."""
    return Client(HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.django_db
def test_each_persons_stake_is_held_when_the_match_starts(person):
    room, match, (ana, bia) = staked_match(person, 100)
    assert match.stake_coins == 100
    assert coins(ana) == coins(bia) == 400
    held = LedgerEntry.objects.filter(reason="stake_held", reference=f"match:{match.public_id}")
    assert sorted(held.values_list("amount", flat=True)) == [-100, -100]
    assert stake_flow(f"match:{match.public_id}") == -200


@pytest.mark.django_db
def test_the_winner_takes_the_pot_less_the_house_25_percent(person):
    house_before = house_coins()
    room, match, (ana, bia) = staked_match(person, 100)
    finish(match, side=1)
    assert coins(bia) - rewards_of(bia) == 400 + 150
    assert coins(ana) - rewards_of(ana) == 400
    assert house_coins() - house_before == 50
    assert stake_flow(f"match:{match.public_id}") == 0
    assert Match.objects.get(pk=match.pk).stakes_settled


@pytest.mark.django_db
def test_two_winners_split_the_pot_and_the_remainders_go_to_the_house(person):
    house_before = house_coins()
    room, match, people = staked_match(person, 7, seats=4)
    finish(match, side=0)
    # Pot 28; 75 % is 21; 21 // 2 = 10 each; the house gets 28 - 20 = 8 (its 7 and the odd coin).
    winners = [u for seat, u in enumerate(people) if seat % 2 == 0]
    losers = [u for seat, u in enumerate(people) if seat % 2 == 1]
    for user in winners:
        assert coins(user) - rewards_of(user) == 493 + 10
    for user in losers:
        assert coins(user) - rewards_of(user) == 493
    assert house_coins() - house_before == 8
    assert stake_flow(f"match:{match.public_id}") == 0


@pytest.mark.django_db
def test_the_pot_is_paid_once_even_if_settlement_runs_again(person):
    room, match, (ana, bia) = staked_match(person, 100)
    finish(match, side=0)
    paid = coins(ana)
    match.stakes_settled = False  # as if the flag were lost: the idempotency keys still hold
    settle_stakes(match, seats=list(match.seats.select_related("user")))
    assert coins(ana) == paid
    assert stake_flow(f"match:{match.public_id}") == 0


@pytest.mark.django_db
def test_a_person_who_cannot_cover_the_stake_cannot_sit(person, client):
    ana, bia = person("Ana"), person("Bia")
    set_coins(ana, 500)
    set_coins(bia, 99)
    room = services.create_room(ana, options())
    set_stake(ana, room, 100)
    with pytest.raises(services.RoomRefused) as refused:
        services.join_room(bia, room.code)
    assert refused.value.code == "stake_not_covered"
    assert "100" in str(refused.value.message) and "99" in str(refused.value.message)
    assert coins(bia) == 99 and selectors.seat_of(room, bia) is None
    # Over HTTP: the message, with the way to the shop.
    client.force_login(bia)
    response = client.post(f"/rooms/r/{room.code}/join/", follow=True)
    page = response.content.decode()
    assert "stake of 100 coins" in page and 'data-nav="shop-coins"' in page


@pytest.mark.django_db
def test_quick_join_never_seats_a_person_at_a_stake_they_cannot_cover(person):
    ana, bia = person("Ana"), person("Bia")
    set_coins(ana, 500)
    set_coins(bia, 10)
    room = services.create_room(ana, options())
    set_stake(ana, room, 100)
    joined = services.quick_join(bia, options().rules)
    assert joined.pk != room.pk


@pytest.mark.django_db
def test_a_person_alone_against_bots_stakes_nothing(person):
    ana = person("Ana")
    set_coins(ana, 500)
    room = services.create_room(ana, options(), is_private=True, name="Mesa", password="pw")
    set_stake(ana, room, 100)
    room = services.fill_with_bots_and_start(ana, room.code, "easy")
    room.refresh_from_db()
    assert room.match.stake_coins == 0 and coins(ana) == 500


@pytest.mark.django_db
def test_an_annulled_match_gives_every_stake_back(person):
    house_before = house_coins()
    room, match, (ana, bia) = staked_match(person, 100)
    annulment.propose(ana, match.public_id)
    annulment.answer(bia, match.public_id, agree=True)
    match.refresh_from_db()
    assert match.status == Match.Status.ANNULLED and match.stakes_settled
    assert coins(ana) == coins(bia) == 500
    assert house_coins() == house_before
    assert stake_flow(f"match:{match.public_id}") == 0


@pytest.mark.django_db
def test_an_annulment_keeps_the_stake_of_a_person_who_left_for_the_house(person):
    house_before = house_coins()
    room, match, people = staked_match(person, 10, seats=4)
    Seat.objects.filter(match=match, number=3).update(left_at=timezone.now())  # a robot plays seat 3
    annulment.propose(people[0], match.public_id)
    for user in people[1:3]:
        annulment.answer(user, match.public_id, agree=True)
    match.refresh_from_db()
    assert match.status == Match.Status.ANNULLED
    assert [coins(u) for u in people] == [500, 500, 500, 490]
    assert house_coins() - house_before == 10


@pytest.mark.django_db
def test_an_abandoners_side_loses_its_stakes_to_the_pot(person):
    house_before = house_coins()
    room, match, (ana, bia) = staked_match(person, 100)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        moves.abandon_match(locked, 0, reason="missed_turns")
    assert coins(ana) == 400
    assert coins(bia) == 550  # the pot less the house's 25 %; an abandoned match pays no reward
    assert house_coins() - house_before == 50
    assert stake_flow(f"match:{match.public_id}") == 0


@pytest.mark.django_db
def test_a_winner_who_left_before_the_end_gets_no_share(person):
    house_before = house_coins()
    room, match, people = staked_match(person, 10, seats=4)
    Seat.objects.filter(match=match, number=2).update(left_at=timezone.now())
    finish(match, side=0)
    assert coins(people[0]) - rewards_of(people[0]) == 490 + 15
    assert coins(people[2]) - rewards_of(people[2]) == 490
    assert house_coins() - house_before == 40 - 15
    assert stake_flow(f"match:{match.public_id}") == 0


@pytest.mark.django_db
def test_a_winner_a_robot_played_for_most_of_the_match_gets_no_share(person):
    house_before = house_coins()
    room, match, people = staked_match(person, 10, seats=4)
    # What the move count says once a robot has made 30 of seat 2's moves while its person was away.
    Match.objects.filter(pk=match.pk).update(own_moves={**match.own_moves, "2": [0, 30]})
    finish(match, side=0)
    assert coins(people[0]) - rewards_of(people[0]) == 490 + 15
    assert coins(people[2]) - rewards_of(people[2]) == 490
    assert house_coins() - house_before == 40 - 15
    assert stake_flow(f"match:{match.public_id}") == 0


@pytest.mark.django_db
def test_the_house_account_cannot_sign_in_and_got_no_starter_gift(person):
    house = wallet.house_account()
    assert not house.is_active and not house.has_usable_password()
    assert not LedgerEntry.objects.filter(wallet__user=house, reason="starter_grant").exists()


@pytest.mark.django_db
def test_a_room_with_a_stake_plays_again_only_if_everyone_still_covers_it(person):
    room, match, (ana, bia) = staked_match(person, 100, start_coins=100)
    finish(match, side=0)
    set_coins(bia, 0)
    set_coins(ana, 300)
    again.accept(ana, match.public_id)
    with pytest.raises(services.RoomRefused) as refused:
        again.accept(bia, match.public_id)
    assert refused.value.code == "stake_not_covered"
    assert PlayAgain.objects.get(room=room).status == PlayAgain.Status.OPEN
    assert Room.objects.count() == 1
