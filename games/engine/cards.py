"""Cards as small ints, the decks of both variants, and the card strengths that rank them.

A card is ``rank * 4 + suit`` with ranks ``4 5 6 7 Q J K A 2 3`` (0..9, also the common
order, low to high) and suits ``C H S D`` (0..3).  Strings like ``"4C"`` exist only at the
edges (actions, events, views, JSON); the engine compares ints, precomputed once.
"""

from __future__ import annotations

from functools import cache, lru_cache

RANKS = "4567QJKA23"
SUITS = "CHSD"
ALL_CARDS = tuple(range(40))

CARD_NAMES = tuple(r + s for r in RANKS for s in SUITS)
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}

# Ranks Q J K A 2 3 (indices 4..9); the clean Mineiro deck keeps its four manilhas too.
_CLEAN_RANKS = range(4, 10)
MINEIRO_MANILHAS = (CARD_INDEX["4C"], CARD_INDEX["7H"], CARD_INDEX["AS"], CARD_INDEX["7D"])  # high to low

# Strength of a manilha over every common card (commons are 0..9).
MANILHA_BASE = 10
FACE_DOWN_STRENGTH = -1


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def parse_card(text: object) -> int:
    """The int of a card written like ``"4C"``; ValueError for anything else."""
    card = CARD_INDEX.get(text) if isinstance(text, str) else None
    if card is None:
        raise ValueError(f"bad card {text!r}: write rank+suit, ranks {' '.join(RANKS)}, suits {' '.join(SUITS)}")
    return card


def rank_of(card: int) -> int:
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


@cache
def deck_cards(variant: str, deck: str) -> tuple[int, ...]:
    """The cards of a deck, in a fixed order (the seeded shuffle starts from it)."""
    if deck == "dirty":
        return ALL_CARDS
    cards = [c for c in ALL_CARDS if rank_of(c) in _CLEAN_RANKS]
    if variant == "mineiro":
        cards = sorted(cards + [CARD_INDEX["4C"], CARD_INDEX["7H"], CARD_INDEX["7D"]])
    return tuple(cards)


@cache
def cyclic_ranks(deck: str) -> tuple[int, ...]:
    """The ranks the vira cycles through: all ten (dirty) or Q..3 (clean)."""
    return tuple(range(10)) if deck == "dirty" else tuple(_CLEAN_RANKS)


def manilha_rank_for_vira(vira: int, deck: str) -> int:
    """Paulista: the rank just above the vira, wrapping from 3 to 4 (dirty) or Q (clean)."""
    ranks = cyclic_ranks(deck)
    return ranks[(ranks.index(rank_of(vira)) + 1) % len(ranks)]


@cache
def paulista_strengths(manilha_rank: int) -> tuple[int, ...]:
    """Strength per card when ``manilha_rank`` is trump: C > H > S > D above all commons."""
    return tuple(MANILHA_BASE + 3 - suit_of(c) if rank_of(c) == manilha_rank else rank_of(c) for c in ALL_CARDS)


@cache
def mineiro_strengths() -> tuple[int, ...]:
    """Strength per card with Mineiro's fixed manilhas; other 4s and 7s stay common."""
    strengths = [rank_of(c) for c in ALL_CARDS]
    for place, card in enumerate(MINEIRO_MANILHAS):
        strengths[card] = MANILHA_BASE + 3 - place
    return tuple(strengths)


@lru_cache(maxsize=256)
def card_strengths(manilhas: tuple[str, ...]) -> dict[str, int]:
    """Card name -> strength (commons 0..9 by rank, manilhas 13..10 high to low), from a view's
    manilhas (which it lists high to low): what the bots compare cards by."""
    table = {name: RANKS.index(name[0]) for name in CARD_NAMES}
    for place, name in enumerate(manilhas):
        table[name] = MANILHA_BASE + 3 - place
    return table
