"""How many frames a table socket may send: a token bucket per socket (as lichess does), pure and clock-injectable.

A person clicks a few times a second at most; a script can send hundreds, and every frame costs
the process a parse and an error frame, slowing every other table on it. Each socket gets
`burst` frames at once and `rate` more per second; a frame with no token left is refused without
being read (one error frame per run of refusals, not one per frame). A socket that keeps sending
while refused (`flood_after` refusals within `flood_window_s`) is closed: it is a script, not a
person. Its browser session (or address) may not open a table socket on this process for
`FLOOD_PENALTY_S` afterwards (`FloodPenalties`), so reconnecting does not buy a fresh bucket.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

# The limits (docs/decisions.md, "Holding up under abuse and faults").
FRAMES_PER_SECOND = 5.0
FRAME_BURST = 20
FLOOD_REFUSALS = 50
FLOOD_WINDOW_S = 10.0
FLOOD_PENALTY_S = 30.0


@dataclass
class FrameBucket:
    rate: float = FRAMES_PER_SECOND
    burst: int = FRAME_BURST
    flood_after: int = FLOOD_REFUSALS
    flood_window_s: float = FLOOD_WINDOW_S
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    updated: float = field(init=False)
    refusals: list[float] = field(init=False, default_factory=list)
    refused_in_a_row: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)
        self.updated = self.clock()

    def take(self) -> bool:
        """Spend one token for a frame; False (and the refusal counted) when there is none."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        self.refusals = [t for t in self.refusals if now - t < self.flood_window_s]
        self.refusals.append(now)
        return False

    @property
    def flooding(self) -> bool:
        """Refused `flood_after` times within the window: the socket is to be closed."""
        return len(self.refusals) >= self.flood_after


@dataclass
class FloodPenalties:
    """Who was closed for flooding, and until when they may not open a table socket again (this process only:
    no I/O on a socket's connect; a flooder that reaches another process meets that process's bucket)."""

    penalty_s: float = FLOOD_PENALTY_S
    clock: Callable[[], float] = time.monotonic
    until: dict[str, float] = field(default_factory=dict)

    def punish(self, key: str) -> None:
        now = self.clock()
        self.until = {k: t for k, t in self.until.items() if t > now}  # forget the served ones
        self.until[key] = now + self.penalty_s

    def punished(self, key: str) -> bool:
        return self.until.get(key, 0.0) > self.clock()
