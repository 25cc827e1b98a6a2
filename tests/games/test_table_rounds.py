"""The felt shows the rounds of the hand in play (labelled, with who won each) and starts each new hand
clear, with the last hand as a summary line; a screen reader hears what others did."""

import re

import pytest
from django.utils import translation

from games import engine, selectors
from games.match.moves import apply_action
from games.models import Match
from games.table import rendering
from shop.selectors import DEFAULT_DECK
from tests.support.table_states import table_in_state

pytestmark = pytest.mark.django_db


def regions(match: Match, seat: int = 0) -> dict[str, str]:
    match.refresh_from_db()
    table = rendering.table_facts(match, selectors.seats_at(match), DEFAULT_DECK)
    # A socket builds its contexts in its language too (the cards' names are words).
    with translation.override("en"):
        contexts = rendering.table_contexts(match, table, rendering.viewer_view(match, seat))
        return rendering.render_regions(contexts)


def play_first_card(match: Match) -> Match:
    """Whoever is to act plays their first card, through the real service."""
    state = engine.from_json(match.state)
    seat = engine.seats_to_act(state)[0]
    card = engine.seat_view(state, seat)["hand"][0]
    return apply_action(match.public_id, seat, {"do": "play", "card": card}, match.version)


@pytest.fixture
def duel(make_user):
    return table_in_state("turn", make_user("Ana"), make_user("Beto"))


def test_a_finished_round_is_listed_with_its_cards_and_winner_and_the_next_is_in_play(duel):
    match = duel
    while len(engine.from_json(match.state).rounds) < 1:
        match = play_first_card(match)
    trick = regions(match)["trick"]
    round_one = re.search(r'<li class="round (\w+)" data-round="1" data-result="(\w+)">(.*?)</li>', trick, re.S)
    assert round_one and round_one.group(1) == round_one.group(2) in ("won", "lost", "tied")
    assert round_one.group(3).count('class="mini-card') == 2
    assert "Round 1" in round_one.group(3)
    winner = "You" if round_one.group(2) == "won" else "Beto" if round_one.group(2) == "lost" else "tied"
    assert f'<span class="round-winner">{winner}</span>' in round_one.group(3)
    assert 'data-round-in-play="2"' in trick and "Round 2" in trick
    # Until the next card, the finished round stays on the felt, dimmed, then goes to the seat that took it.
    collected = re.search(r'class="played previous(?: collect-to-(\w+))?"', trick)
    assert collected and trick.count("data-played-by=") == 2
    assert collected.group(1) == {"won": "bottom", "lost": "top", "tied": None}[round_one.group(2)]


def test_a_new_hand_starts_on_a_clear_felt_with_the_last_hand_as_a_summary(duel):
    match = duel
    while engine.from_json(match.state).hand_number == 1:
        match = play_first_card(match)
    pushed = regions(match)
    assert "data-played-by=" not in pushed["trick"] and 'data-round="' not in pushed["trick"]
    assert 'data-round-in-play="1"' in pushed["trick"]
    last = re.search(r'<p class="last-hand" data-last-hand="1">(.*?)</p>', pushed["status"], re.S).group(1)
    assert "Hand 1:" in last and last.count('class="mini-card') == 2


def test_the_screen_reader_hears_the_others_card_and_a_raise(duel, make_user):
    match = duel
    assert engine.seats_to_act(engine.from_json(match.state)) == [0]
    match = play_first_card(play_first_card(match))  # Ana, then Beto closes round 1
    announced = regions(match)["announce"]
    assert 'aria-live="polite"' in announced
    assert re.search(r"Beto played (\w+) of \w+\.", announced) or "Beto played a card face down" in announced
    assert re.search(r"Round 1: (You|Beto)\.|Round 1 tied\.", announced)
    raised = table_in_state("raise", make_user("Cris"), make_user("Dani"))
    assert "Dani called Truco! (3)!" in regions(raised)["announce"]
    assert "Your turn." in regions(raised)["announce"]
