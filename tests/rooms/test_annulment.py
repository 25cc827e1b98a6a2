"""Friendly annulment (issue 12 item 3): any person playing proposes; everyone playing must agree within
30 s (robots and bots do not vote); one "no" or the clock and the match goes on. An annulled match gives
and takes no points and counts nowhere. One vote at a time; a 2-minute wait after one's refused
proposal. Bad input (a spectator's or a robot seat's vote, a second proposal, too soon) changes nothing."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Seat
from rooms import annulment, services
from rooms.models import AnnulmentVote
from stats.models import CountedMatch
from stats.services import rank_points
from tests.support.matches import win_match_for
from tests.support.rooms import options
from tests.support.sockets import open_socket


@pytest.fixture
def client():
    return Client(HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true")


def room_match(person, seats=2, names=("Ana", "Bia", "Caio", "Duda")):
    people = [person(name) for name in names[:seats]]
    room = services.create_room(people[0], options(seats=seats, partnership=True if seats == 4 else None))
    for user in people[1:]:
        services.join_room(user, room.code)
    room.refresh_from_db()
    return room, room.match, people


def refused(call, *args, **kwargs) -> str:
    with pytest.raises(services.RoomRefused) as caught:
        call(*args, **kwargs)
    return caught.value.code


@pytest.mark.django_db
def test_everyone_agreeing_annuls_the_match_and_it_counts_for_nobody(person):
    room, match, people = room_match(person, seats=4)
    annulment.propose(people[2], match.public_id)
    for user in (people[0], people[1]):
        annulment.answer(user, match.public_id, agree=True)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE  # Duda has not answered yet
    annulment.answer(people[3], match.public_id, agree=True)
    match.refresh_from_db()
    assert match.status == Match.Status.ANNULLED and match.winner_side is None and match.deadline is None
    assert all(rank_points(user) == 0 for user in people)
    assert not CountedMatch.objects.filter(reference=f"match:{match.public_id}").exists()
    assert AnnulmentVote.objects.get().status == AnnulmentVote.Status.ACCEPTED


@pytest.mark.django_db
def test_one_refusal_and_the_match_goes_on(person):
    room, match, (ana, bia) = room_match(person)
    annulment.propose(ana, match.public_id)
    annulment.answer(bia, match.public_id, agree=False)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    assert annulment.vote_facts(match).status == "refused" and annulment.vote_facts(match).refused_by == "Bia"


@pytest.mark.django_db
def test_a_vote_runs_out_after_30_seconds_and_the_match_goes_on(person, settings):
    room, match, (ana, bia) = room_match(person)
    vote = annulment.propose(ana, match.public_id)
    assert settings.ROOMS_ANNUL_VOTE_S == 30
    assert timedelta(seconds=29) < vote.expires_at - vote.created_at <= timedelta(seconds=30)
    AnnulmentVote.objects.filter(pk=vote.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert refused(annulment.answer, bia, match.public_id, agree=True) == "no_vote"
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    assert annulment.vote_facts(match).status == "expired"


@pytest.mark.django_db
def test_one_proposal_at_a_time_and_two_minutes_before_proposing_again(person):
    room, match, (ana, bia) = room_match(person)
    annulment.propose(ana, match.public_id)
    assert refused(annulment.propose, bia, match.public_id) == "vote_under_way"
    assert refused(annulment.answer, ana, match.public_id, agree=True) == "already_agreed"
    annulment.answer(bia, match.public_id, agree=False)
    assert refused(annulment.propose, ana, match.public_id) == "too_soon"
    annulment.propose(bia, match.public_id)  # Bia's own proposal was never refused
    annulment.answer(ana, match.public_id, agree=False)
    vote = AnnulmentVote.objects.filter(proposer=ana).get()
    AnnulmentVote.objects.filter(pk=vote.pk).update(ended_at=timezone.now() - timedelta(seconds=121))
    annulment.propose(ana, match.public_id)
    assert AnnulmentVote.objects.count() == 3


@pytest.mark.django_db
def test_spectators_and_robot_seats_do_not_vote(person):
    room, match, people = room_match(person, seats=4)
    stranger = person("Eva")
    Seat.objects.filter(match=match, number=3).update(left_at=timezone.now())  # a robot plays Duda's seat
    assert refused(annulment.propose, stranger, match.public_id) == "not_a_player"
    assert refused(annulment.propose, people[3], match.public_id) == "robot_seat"
    annulment.propose(people[0], match.public_id)
    assert refused(annulment.answer, stranger, match.public_id, agree=True) == "not_a_player"
    assert refused(annulment.answer, people[3], match.public_id, agree=True) == "robot_seat"
    annulment.answer(people[1], match.public_id, agree=True)
    annulment.answer(people[2], match.public_id, agree=True)  # the robot's seat is not waited for
    assert Match.objects.get(pk=match.pk).status == Match.Status.ANNULLED


@pytest.mark.django_db
def test_a_person_a_robot_plays_for_while_they_are_away_does_not_vote(person):
    room, match, people = room_match(person, seats=4)
    Match.objects.filter(pk=match.pk).update(robot_seats=[1])  # away too long: a robot plays seat 1
    annulment.propose(people[0], match.public_id)
    assert refused(annulment.answer, people[1], match.public_id, agree=True) == "robot_seat"
    annulment.answer(people[2], match.public_id, agree=True)
    annulment.answer(people[3], match.public_id, agree=True)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ANNULLED


@pytest.mark.django_db
def test_bots_do_not_vote_and_one_person_cannot_annul_alone(person):
    ana = person("Ana")
    room = services.create_room(ana, options(), is_private=True, name="Mesa", password="pw")
    room = services.fill_with_bots_and_start(ana, room.code, "easy")
    room.refresh_from_db()
    assert refused(annulment.propose, ana, room.match.public_id) == "too_few_voters"


@pytest.mark.django_db
def test_a_finished_match_cannot_be_annulled(person):
    room, match, (ana, bia) = room_match(person)
    win_match_for(match, side=0)
    assert refused(annulment.propose, ana, match.public_id) == "match_over"


@pytest.mark.django_db
def test_the_vote_over_http_answers_a_refusal_with_its_message(client, person):
    room, match, (ana, bia) = room_match(person)
    stranger = person("Eva")
    client.force_login(stranger)
    response = client.post(f"/rooms/annul/{match.public_id}/propose/")
    assert response.content.decode() == "Only the people playing at this table vote."
    assert not AnnulmentVote.objects.exists()
    client.force_login(ana)
    assert client.post(f"/rooms/annul/{match.public_id}/propose/").content == b""
    assert client.post(f"/rooms/annul/{match.public_id}/propose/").content.decode() == (
        "A vote to annul this match is already under way."
    )
    panel = client.get(f"/rooms/annul/{match.public_id}/").content.decode()
    assert 'data-annul="open"' in panel and "Ana proposes to annul the match." in panel
    assert 'data-action="annul-yes"' not in panel  # Ana agreed by proposing
    client.force_login(bia)
    panel = client.get(f"/rooms/annul/{match.public_id}/").content.decode()
    assert 'data-action="annul-yes"' in panel and f'ws-connect="/ws/room/{room.code}/annul/"' in panel
    client.post(f"/rooms/annul/{match.public_id}/yes/")
    assert Match.objects.get(pk=match.pk).status == Match.Status.ANNULLED
    table = Client(HTTP_ACCEPT_LANGUAGE="en")
    table.force_login(bia)
    page = table.get(reverse("games:table", kwargs={"public_id": match.public_id})).content.decode()
    assert 'data-match-result="annulled"' in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_everyone_at_the_table_sees_the_vote_live(person):
    room, match, (ana, bia) = await sync_to_async(room_match)(person)
    sockets = [await open_socket(f"/ws/room/{room.code}/annul/", user) for user in (ana, bia)]
    for socket in sockets:
        assert 'data-annul="none"' in await socket.receive_from(timeout=3)
    await sync_to_async(annulment.propose)(ana, match.public_id)
    frames = [await socket.receive_from(timeout=3) for socket in sockets]
    assert all('data-annul="open"' in frame for frame in frames)
    assert 'data-action="annul-yes"' in frames[1] and 'data-action="annul-yes"' not in frames[0]
    await sync_to_async(annulment.answer)(bia, match.public_id, agree=False)
    frames = [await socket.receive_from(timeout=3) for socket in sockets]
    assert all('data-annul-result="refused"' in frame for frame in frames)
    assert "data-annul-cooldown" in frames[0] and 'data-action="annul-propose"' in frames[1]
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_annul_socket_is_closed_to_people_not_at_the_table(person):
    room, match, _people = await sync_to_async(room_match)(person)
    stranger = await sync_to_async(person)("Eva")
    socket = await open_socket(f"/ws/room/{room.code}/annul/", stranger)
    closed = await socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": 4403}
