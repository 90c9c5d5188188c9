"""The one retry rule: tries counted, pauses doubled and capped, a server's wait honoured, jitter bounded."""

from __future__ import annotations

import pytest

from citecheck.sources.retry import Backoff


@pytest.mark.parametrize(
    ("backoff", "asked", "pauses"),
    [
        (Backoff(tries=0), None, [None]),  # no retries: give up at the first failure
        (Backoff(tries=3, base_s=0.5), None, [0.5, 1.0, 2.0, None]),
        (Backoff(tries=4, base_s=1.0, cap_s=3.0), None, [1.0, 2.0, 3.0, 3.0, None]),  # capped
        (Backoff(tries=2, base_s=0.5, cap_s=8.0), 30.0, [8.0, 8.0, None]),  # Retry-After, capped
        (Backoff(tries=1), -4.0, [0.0, None]),  # a negative Retry-After is no wait, not an error
    ],
)
def test_pauses(backoff: Backoff, asked: float | None, pauses: list[float | None]) -> None:
    assert [backoff.next(asked_s=asked) for _ in pauses] == pauses
    assert backoff.attempts == backoff.tries + 1


def test_jitter_adds_at_most_its_fraction() -> None:
    low = Backoff(tries=1, base_s=2.0, jitter=0.1, rng=lambda: 0.0)
    high = Backoff(tries=1, base_s=2.0, jitter=0.1, rng=lambda: 1.0)
    assert low.next() == 2.0 and high.next() == pytest.approx(2.2)
