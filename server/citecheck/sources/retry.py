"""The one retry rule of every network edge (CourtListener, the model endpoint): how many more tries a
request gets after a failure, and how long to pause before each.

Both clients used to count tries and compute back-off in their own loops; the counting, the cap, the
jitter and a server's own ``Retry-After`` now live here, and each client only says which failures
are worth another try and what it does between them (CourtListener lets its pacer hold; the model
client sleeps, inside its deadline). Pure: no clock, no sleeping.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(slots=True)
class Backoff:
    """The tries left for one kind of failure, and the pause before the next.

    The pause doubles from ``base_s`` up to ``cap_s``; a server's own wait (``Retry-After``) takes its
    place, capped too; ``jitter`` adds up to that fraction at random so that clients do not retry in step.

    >>> b = Backoff(tries=2, base_s=0.5)
    >>> b.next(), b.next(), b.next()
    (0.5, 1.0, None)
    >>> Backoff(tries=1, cap_s=8.0).next(asked_s=120.0)
    8.0
    """

    tries: int
    base_s: float = 0.5
    cap_s: float = math.inf
    jitter: float = 0.0
    used: int = 0
    rng: Callable[[], float] = random.random

    def next(self, *, asked_s: float | None = None) -> float | None:
        """The pause before one more try, or None when the tries are used up (the caller gives up)."""
        if self.used >= self.tries:
            return None
        self.used += 1
        pause = asked_s if asked_s is not None else self.base_s * 2 ** (self.used - 1)
        pause = min(self.cap_s, max(0.0, pause))
        return pause * (1 + self.rng() * self.jitter) if self.jitter else pause

    @property
    def attempts(self) -> int:
        """Tries made so far, the first included."""
        return self.used + 1
