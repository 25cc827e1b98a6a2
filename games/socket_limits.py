"""How many frames a table socket may send: a token bucket per socket (as lichess does), pure and clock-injectable.

A person clicks a few times a second at most; a script can send hundreds, and every frame costs
the process a parse and an error frame, slowing every other table on it. Each socket gets
`burst` frames at once and `rate` more per second; a frame with no token left is refused without
being read. A socket that keeps sending while refused (`flood_after` refusals within
`flood_window_s`) is closed: it is a script, not a person.
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
            return True
        self.refusals = [t for t in self.refusals if now - t < self.flood_window_s]
        self.refusals.append(now)
        return False

    @property
    def flooding(self) -> bool:
        """Refused `flood_after` times within the window: the socket is to be closed."""
        return len(self.refusals) >= self.flood_after
