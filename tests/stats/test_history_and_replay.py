"""Match history and the replay: only the people at the match see it, and a replay never shows
another seat's unplayed or face-down card."""

import re

import pytest

from games.models import DealtCards, MatchEvent
from tests.support.leaks import cards_shown

pytestmark = pytest.mark.django_db

BOARD = re.compile(r'<div id="replay-board" class="replay-board" data-step="(\d+)" data-hand="(\d+)">(.*)', re.S)
STEPS = re.compile(r'data-steps="(\d+)"')
MY_HAND = re.compile(r'<section id="hand"(.*?)</section>', re.S)
LEGEND = re.compile(r'<p class="manilha">.*?</p>', re.S)
SEED_WITH_A_DOUBLE_PLAY = 45  # the first seed tried (see play_hiding_cards)


def face_down_first(legal):
    """Seat 0's choice: a double play when it may (online Mineiro), else a face-down card, else the first."""
    double = [a for a in legal if a.kind == "play" and a.hidden is not None]
    down = [a for a in legal if a.kind == "play" and a.face_down]
    return (double or down or legal)[0]


def play_hiding_cards(play_match, user, seats, seed, rules):
    """A match where seat 0 hides what it can. The AI's choices are seeded by the match's id (which the
    test order sets), so whether a first round ties, and with it online Mineiro's double play, may vary:
    the next seeds are tried until a match has one (a replay with a double play is what is checked)."""
    for tried in range(seed, seed + 20):
        match = play_match(user, seats=seats, seed=tried, choose=face_down_first, **rules)
        if rules.get("mineiro_style") != "online" or MatchEvent.objects.filter(match=match, data__double=True).exists():
            return match
    raise AssertionError(f"no seed from {seed} to {seed + 19} gave a double play")


def test_history_lists_finished_matches_with_result_and_a_replay_link(user, play_match, client):
    match = play_match(user, seed=21, score=[11, 0])
    client.force_login(user)
    html = client.get("/play/history/").content.decode()
    assert f'data-history-match="{match.public_id}"' in html
    assert f"/play/m/{match.public_id}/replay/" in html
    assert ("Won" if match.won_by(0) else "Lost") in html
    assert client.get("/play/history/?page=abc").status_code == 200  # a bad page number shows the first page


def test_only_the_people_at_the_match_see_its_replay(user, make_user, play_match, start_plain, client):
    match = play_match(user, seed=21, score=[11, 0])
    client.force_login(make_user("Outsider", password=None))
    assert client.get(f"/play/m/{match.public_id}/replay/").status_code == 404
    client.logout()
    assert client.get(f"/play/m/{match.public_id}/replay/").status_code == 404
    client.force_login(user)
    assert client.get(f"/play/m/{match.public_id}/replay/").status_code == 200
    running = start_plain(user)
    response = client.get(f"/play/m/{running.public_id}/replay/")
    assert response.status_code == 404 and "not over yet" in response.content.decode()
    assert client.get("/play/m/doesnotexist1/replay/").status_code == 404


@pytest.mark.parametrize(
    "seats, seed, rules",
    [
        (2, 31, {"face_down": True}),
        (4, 32, {"face_down": True}),
        (2, SEED_WITH_A_DOUBLE_PLAY, {"variant": "mineiro", "mineiro_style": "online"}),
    ],
)
def test_the_replay_shows_no_hidden_card(user, play_match, client, seats, seed, rules):
    match = play_hiding_cards(play_match, user, seats, seed, rules)
    client.force_login(user)
    url = f"/play/m/{match.public_id}/replay/"
    total = int(STEPS.search(client.get(url).content.decode()).group(1))
    events = list(MatchEvent.objects.filter(match=match).order_by("id").values_list("data", flat=True))
    # One board a step, as the step buttons fetch it (htmx: the board alone).
    steps = [
        BOARD.search(client.get(f"{url}?step={n}", HTTP_HX_REQUEST="true").content.decode())
        for n in range(1, total + 1)
    ]
    assert total == len(events) > 10 and all(steps)
    dealt = {(d.hand_number, d.seat): d for d in DealtCards.objects.filter(match=match)}
    hand, public = 1, set()
    saw_my_face_down = saw_their_back = False
    for found, event in zip(steps, events, strict=True):
        number, hand_attr, body = found.groups()
        if event["type"] == "hand_dealt":
            hand, public = event["hand_number"], set()
        if event["type"] == "card_played" and not event["face_down"]:
            public.add(event["card"])
        if event["type"] == "card_lost_value":  # online Mineiro: the card beneath is shown
            public |= {event["card"], event["hidden"]}
        if event["type"] == "hidden_revealed":
            public |= {play["card"] for play in event["plays"]}
        assert int(hand_attr) == hand
        # (Mineiro's four manilhas are printed on every table: the legend is no card of anyone's.)
        shown = cards_shown(LEGEND.sub("", body))
        hidden = set()
        for seat in range(1, seats):
            hidden |= set(dealt[(hand, seat)].cards) - public  # their unplayed and face-down cards
        assert not shown & hidden, f"step {number} shows hidden cards {shown & hidden}"
        mine = cards_shown(MY_HAND.search(body).group(1))
        assert mine <= set(dealt[(hand, 0)].cards)
        saw_my_face_down |= any(c in shown for c in dealt[(hand, 0)].face_down) and "face down" in body
        saw_their_back |= 'class="card back' in body
    assert saw_my_face_down or saw_their_back  # the match did exercise face-down cards
    if rules.get("mineiro_style") == "online":
        assert any(e.get("double") for e in events)  # and online Mineiro's double play
