"""Names link to the player's profile on the felt and in the replay too (issue 33 item 4): on the felt another
person's name opens their profile in a new tab, so the match goes on; your own seat, the AI and a disabled account
link nowhere. (The chat's authors: tests/rooms/test_room_chat.py; the lobby's and the room page's chief:
tests/rooms/test_room_pages.py.)"""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from tests.support.matches import make_table, pushed_fragments, win_match_for

pytestmark = pytest.mark.django_db


def profile_links(html: str) -> list[str]:
    return re.findall(r'<a class="name" href="([^"]+)" target="_blank" rel="noopener" data-profile-link>', html)


def test_another_persons_name_on_the_felt_opens_their_profile_and_yours_does_not(make_user):
    match, (ana, bia) = make_table(make_user, 2)
    with translation.override("en"):
        seats = pushed_fragments(match, 0)["seats"]
    assert profile_links(seats) == [reverse("accounts:public_profile", args=[bia.username])]
    bia.is_active = False  # a disabled account has no profile to open
    bia.save()
    with translation.override("en"):
        assert profile_links(pushed_fragments(match, 0)["seats"]) == []


def test_the_ai_seat_links_nowhere(user):
    rules = engine.RuleSet(variant="paulista", seats=2)
    match = create_match(rules=rules, seats=seat_plans_against_ai(rules, "easy", user=user), bot_level="easy", seed=5)
    with translation.override("en"):
        assert profile_links(pushed_fragments(match, 0)["seats"]) == []


def test_the_replay_names_the_people_with_links_and_the_ai_without(client, user):
    rules = engine.RuleSet(variant="paulista", seats=2)
    match = create_match(rules=rules, seats=seat_plans_against_ai(rules, "easy", user=user), bot_level="easy", seed=5)
    win_match_for(match, 0)
    client.force_login(user)
    html = client.get(reverse("games:replay", args=[match.public_id])).content.decode()
    who = html.split('class="replay-who">')[1].split("</p>")[0]
    assert re.findall(r'<a href="([^"]+)" data-profile-link>', who) == [
        reverse("accounts:public_profile", args=[user.username])
    ]
    assert " · " in who  # the AI is named too, without a link
