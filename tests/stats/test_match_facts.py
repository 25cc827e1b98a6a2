"""stats.facts.match_counters on scripted event lists, against numbers counted by hand."""

from datetime import UTC, datetime

from stats.facts import MatchRecord, match_counters

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def record(events, *, won=True, seat=0, side=0, variant="paulista", seats=2, mode="ai", tournament_won=False):
    return MatchRecord(
        user_id=1,
        reference="match:x",
        finished_at=T0,
        mode=mode,
        variant=variant,
        seats=seats,
        seat=seat,
        side=side,
        won=won,
        events=events,
        tournament_won=tournament_won,
    )


def start(score=(0, 0), kind="normal"):
    return {
        "type": "match_started",
        "dealer": 1,
        "vira": "3H",
        "manilha_rank": "4",
        "hand_kind": kind,
        "score": list(score),
    }


def dealt(n, kind="normal", deciding=(), manilha="4"):
    return {
        "type": "hand_dealt",
        "hand_number": n,
        "hand_kind": kind,
        "deciding_sides": list(deciding),
        "manilha_rank": manilha,
    }


def won_hand(n, side, points, score):
    return {
        "type": "hand_won",
        "hand_number": n,
        "side": side,
        "points": points,
        "reason": "two_rounds",
        "score": score,
    }


SCRIPT = [
    start(),  # hand 1 (vira 3H: manilha 4, zap 4C)
    {"type": "card_played", "seat": 0, "round": 1, "card": "4C", "face_down": False},
    {"type": "card_played", "seat": 1, "round": 1, "card": "7H", "face_down": False},
    {"type": "round_won", "round": 1, "side": 0, "seat": 0, "card": "4C"},
    {"type": "raise_asked", "seat": 0, "side": 0, "value": 3, "name": "truco", "stake": 1, "counter": False},
    {"type": "raise_accepted", "seat": 1, "side": 1, "value": 3},
    won_hand(1, 0, 3, [3, 0]),
    dealt(2),
    {"type": "raise_asked", "seat": 1, "side": 1, "value": 3, "name": "truco", "stake": 1, "counter": False},
    {"type": "raise_run", "seat": 0, "side": 0, "refused": 3, "points": 1, "to_side": 1},
    won_hand(2, 1, 1, [3, 1]),
    dealt(3, "eleven", deciding=[0]),
    {"type": "eleven_accepted", "seat": 0, "side": 0, "value": 3},
    won_hand(3, 0, 3, [6, 1]),
]


def test_hand_counted_numbers_of_a_scripted_match():
    c = match_counters(record(SCRIPT))
    assert c["played"] == 1 and c["won"] == 1 and "lost" not in c
    assert c["hands_played"] == 3 and c["hands_won"] == 2
    assert c["trucos_called"] == 1  # seat 0 asked once; seat 1's truco is not ours
    assert "trucos_accepted" not in c  # the other seat accepted
    assert c["trucos_won"] == 1  # hand 1: we called and won it
    assert c["trucos_run"] == 1
    assert c["zap_rounds_won"] == 1
    assert c["eleven_hands_played"] == 1 and c["eleven_hands_won"] == 1
    assert "flawless_wins" not in c  # hand 2 was lost
    assert "comeback_wins" not in c


def test_the_other_seat_sees_the_mirror():
    c = match_counters(record(SCRIPT, won=False, seat=1, side=1))
    assert c["lost"] == 1 and c["hands_won"] == 1 and c["trucos_accepted"] == 1 and c["trucos_called"] == 1
    assert "zap_rounds_won" not in c and "eleven_hands_played" not in c


def test_a_refused_hand_of_eleven_is_not_played():
    events = [start(), dealt(2, "eleven", deciding=[0]), {"type": "eleven_refused", "seat": 0, "side": 0, "points": 1}]
    events.append(won_hand(2, 1, 1, [11, 1]))
    assert "eleven_hands_played" not in match_counters(record(events, won=False))


def test_mineiro_zap_is_the_four_of_clubs_whatever_the_hand():
    events = [start(), {"type": "round_won", "round": 1, "side": 0, "seat": 0, "card": "4C"}]
    assert match_counters(record(events, variant="mineiro"))["zap_rounds_won"] == 1
    events = [start(), {"type": "round_won", "round": 1, "side": 0, "seat": 0, "card": "7H"}]
    assert "zap_rounds_won" not in match_counters(record(events, variant="mineiro"))


def test_flawless_and_comeback_and_twelve_and_iron():
    flawless = [start(), won_hand(1, 0, 12, [12, 0])]
    assert match_counters(record(flawless))["flawless_wins"] == 1
    comeback = [start(), won_hand(1, 1, 11, [0, 11]), dealt(2, "eleven", deciding=[1]), won_hand(2, 0, 12, [12, 11])]
    c = match_counters(record(comeback))
    assert c["comeback_wins"] == 1 and "flawless_wins" not in c
    # One point on the board before the other side reached eleven: no comeback.
    near = [start(), won_hand(1, 0, 1, [1, 0]), won_hand(2, 1, 11, [1, 11]), dealt(3, "eleven", deciding=[1])]
    near.append(won_hand(3, 0, 11, [12, 11]))
    assert "comeback_wins" not in match_counters(record(near))
    twelve = [
        start(),
        {"type": "raise_accepted", "seat": 0, "side": 0, "value": 12},
        won_hand(1, 0, 12, [12, 0]),
    ]
    assert match_counters(record(twelve))["twelves_won"] == 1
    lost_twelve = [start(), {"type": "raise_accepted", "seat": 0, "side": 0, "value": 12}, won_hand(1, 1, 12, [0, 12])]
    assert "twelves_won" not in match_counters(record(lost_twelve, won=False))
    iron = [start((11, 11), "iron"), won_hand(1, 0, 1, [12, 11])]
    c = match_counters(record(iron))
    assert c["iron_hands_played"] == 1 and c["iron_hands_won"] == 1
