"""Partner signs (issue 32 item 4, bots/signs.py): the sign a seat's hand earns, how long a partner's sign
tells something, and the search dealing the unseen cards by it."""

import random

import pytest

from games.engine import Action, RuleSet, apply, new_match, seat_view
from games.engine.arena import _level, _with_signs
from games.engine.bots.search import Search
from games.engine.bots.signs import SIGNED_STRENGTHS, SIGNS, own_sign, partner_sign_in_hand
from games.engine.cards import CARD_INDEX

# Vira 7D: the queens are the manilhas (QC zap, QH copas, QS espadilha, QD ouros). Seat 0 deals, so
# seat 1 plays first; seats 0 and 2 are partners, as are 1 and 3.
DEAL = {
    "hands": [["3S", "QC", "4D"], ["QH", "2C", "5C"], ["3H", "2S", "6C"], ["4C", "5H", "6D"]],
    "vira": "7D",
}
LOWER_MANILHAS = {
    "hands": [["QS", "4C", "5C"], ["QD", "4H", "5H"], ["AS", "KD", "4S"], ["2C", "2H", "2S"]],
    "vira": "7D",
}


def table(deal=DEAL):
    return new_match(RuleSet(variant="paulista", seats=4), 5, dealer=0, deals=[deal])


def test_each_seat_signs_its_best_card_and_keeps_that_sign_after_playing_it():
    state = table()
    assert [own_sign(seat_view(state, seat)) for seat in range(4)] == ["zap", "copas", "three", "nothing"]
    lower = table(LOWER_MANILHAS)
    assert [own_sign(seat_view(lower, seat)) for seat in range(4)] == ["espadilha", "ouros", "nothing", "nothing"]
    state, _ = apply(state, 1, Action("play", card="QH"))  # seat 1 plays its copas: its sign stays
    assert own_sign(seat_view(state, 1)) == "copas"
    assert set(SIGNED_STRENGTHS) == set(SIGNS)


def test_a_partners_sign_tells_its_best_card_until_it_plays_it():
    state = table()
    assert partner_sign_in_hand({**seat_view(state, 2), "partner_signal": "zap"}, 0) == (13, 13)
    assert partner_sign_in_hand(seat_view(state, 2), 0) is None  # no sign, no information
    for seat, card in ((1, "QH"), (2, "3H"), (3, "4C"), (0, "QC")):  # the zap is on the table now
        state, _ = apply(state, seat, Action("play", card=card))
    assert partner_sign_in_hand({**seat_view(state, 2), "partner_signal": "zap"}, 0) is None
    # "nothing" is still nothing after any card: what is left is no better.
    assert partner_sign_in_hand({**seat_view(state, 0), "partner_signal": "nothing"}, 2) == (0, 8)


def share_of_worlds_where_the_partner_holds(view, card: str, worlds: int = 200) -> float:
    """The share of the worlds the search deals for this decision that give seat 0 (the partner) `card`."""
    search = Search(view, random.Random(3))
    skeleton, slots, pool = search._rebuild()
    dealt = search._worlds(skeleton, slots, pool, worlds)
    return sum(CARD_INDEX[card] in world.hands[0] for world in dealt) / len(dealt)


def test_the_search_deals_the_partner_the_card_it_signed():
    state, _ = apply(table(), 1, Action("play", card="5C"))
    view = seat_view(state, 2)  # seat 2 decides; its partner's cards are unseen to it
    assert view["turn"] == 2 and view["partner_hands"] == {}
    signed = share_of_worlds_where_the_partner_holds({**view, "partner_signal": "zap"}, "QC")
    unsigned = share_of_worlds_where_the_partner_holds(view, "QC")
    assert signed >= 0.7 and unsigned <= 0.2, (signed, unsigned)  # 3 cards of 35: 9% by chance
    # A sign of nothing keeps the manilhas and the threes out of the partner's hand.
    nothing = share_of_worlds_where_the_partner_holds({**view, "partner_signal": "nothing"}, "QC")
    assert nothing <= 0.1, nothing


def test_the_arena_tells_a_level_named_with_signs_its_partners_sign():
    assert _with_signs("expert+signs") == ("expert", True) and _with_signs("expert") == ("expert", False)
    assert _level("hard+signs") == "hard+signs"
    with pytest.raises(Exception, match="levels are"):
        _level("nobody+signs")
