"""The seeded random generator carried in the match state (splitmix64: one int of state).

One int is cheap to copy and trivially JSON-able, so a stored match replays its future
exactly; ``random.Random`` would need its 625-word state copied on every deal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

_MASK = (1 << 64) - 1


def seed_to_state(seed: object) -> int:
    """Any int (or str) seed to the generator's 64-bit state."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError(f"seed must be an int or a string, not {seed!r}")
    if isinstance(seed, str):
        return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
    return seed & _MASK


def next_value(state: int) -> tuple[int, int]:
    """(new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def draw(state: int, cards: Iterable[int], count: int) -> tuple[int, list[int]]:
    """Shuffle only the first ``count`` places (partial Fisher-Yates): all a deal needs.

    Returns (new state, whole deck list); the first ``count`` cards are a uniform draw.
    """
    deck = list(cards)
    size = len(deck)
    for i in range(count):
        state, z = next_value(state)
        j = i + z % (size - i)
        deck[i], deck[j] = deck[j], deck[i]
    return state, deck
