"""A table's machines and partner signals (issue 32 item 4, games/match/bot_signs.py): at a 4-seat table in
pairs that allows signals, a bot partnered with a person signs each hand to that person only, and a bot
deciding is told its person partner's sign; opponents' bots are told nothing."""

from datetime import timedelta

from django.utils import timezone

from games import engine
from games.engine.bots.signs import SIGNS, own_sign
from games.match.moves import due_decision
from games.match.signals import SIGNALS, send_signal, signal_facts
from games.match.starting import SeatPlan, create_match
from tests.support.matches import act, human_turn_action, pushed_fragments, state_of, sweep

LATER = timedelta(hours=1)


def table_with_a_bot_partner(make_user, *, signals: bool = True, seed: int = 4):
    """Ana (seat 0) and a bot partner (seat 2) against two bots, as a room filled with bots starts it."""
    ana = make_user("Ana")
    plans = [SeatPlan(user=ana, display_name="Ana")] + [
        SeatPlan(bot_level=level, display_name=name)
        for level, name in (("medium", "Bot 1"), ("expert", "Parceiro"), ("medium", "Bot 3"))
    ]
    rules = engine.RuleSet(variant="paulista", seats=4, partnership=True)
    return create_match(rules=rules, seats=plans, bot_level="medium", seed=seed, partner_signals=signals)


def next_move(match) -> None:
    """Ana takes her first legal action when she may; otherwise the bots play on the clock."""
    action = human_turn_action(match)
    if action is not None:
        act(match.public_id, 0, action, match.version)
    else:
        assert sweep(now=timezone.now() + LATER) >= 1


def test_a_bot_partner_signs_every_hand_to_its_person_and_to_nobody_else(make_user):
    assert set(SIGNS) == set(SIGNALS)  # a bot signs with the panel's own signs
    match = table_with_a_bot_partner(make_user)
    first = state_of(match)
    sign = own_sign(engine.seat_view(first, 2))
    # Only the bot whose partner is a person signs: the other two bots' partners are bots.
    assert match.signals == {"2": {"hand": first.hand_number, "signal": sign}}
    assert signal_facts(match.signals, engine.seat_view(first, 0), True)["received"] == sign
    assert f'data-partner-signal="{sign}"' in pushed_fragments(match, 0)["signals"]

    while state_of(match).hand_number == first.hand_number:
        next_move(match)
    match.refresh_from_db()
    second = state_of(match)
    assert match.signals["2"] == {"hand": second.hand_number, "signal": own_sign(engine.seat_view(second, 2))}


def test_a_table_without_signals_gets_none_from_its_bots(make_user):
    match = table_with_a_bot_partner(make_user, signals=False)
    for _ in range(12):
        next_move(match)
    match.refresh_from_db()
    assert match.signals == {}


def test_a_bot_deciding_is_told_its_person_partners_sign_and_its_opponents_are_not(make_user):
    match = table_with_a_bot_partner(make_user)
    send_signal(match.public_id, 0, "zap")
    told = {}
    hand = state_of(match).hand_number
    while len(told) < 3 and state_of(match).hand_number == hand:
        decision = due_decision(match.pk, timezone.now() + LATER)
        if decision is not None and decision.seat != 0:
            told[decision.seat] = decision.view.get("partner_signal")
        next_move(match)
    assert told == {1: None, 2: "zap", 3: None}
