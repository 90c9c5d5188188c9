"""The keystroke machinery's tuning limits, in one object.

Each limit bounds the work one keystroke may spend on being clever before a plainer path takes over
(re-split the whole text, index the run's own records, plan every later paragraph again, rebuild a
memo, open a chunk). Every plainer path gives the same result as the clever one: the incremental ≡
fresh fuzz tests run with ``TINY`` as well as ``DEFAULT``, so each fallback runs at its boundary.

The limits are read once per run through ``active()``; ``using(...)`` swaps them for a block (tests,
benchmarks). Not a user setting: they change how fast, never what.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["DEFAULT", "TINY", "Thresholds", "active", "using"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Thresholds:
    #: more edits than this in one batch (a Replace All): one whole re-split instead of one per edit
    local_edits: int = 16
    #: records planned since the previous run's lookup index was made: past this, the run indexes its own
    patch_limit: int = 256
    #: stretches of that index the run's records sit in: past this, likewise
    seg_limit: int = 48
    #: records planned again past which every later paragraph is planned again (no comparison)
    zone_records: int = 512
    #: changed records (not a rename) past which, likewise
    zone_loose: int = 64
    #: per-result lookups kept for at most ``queries_per_paragraph * paragraphs + queries_slack``
    #: results, then forgotten (made again as asked for)
    queries_per_paragraph: int = 2
    queries_slack: int = 64
    #: local-findings memo entries kept for at most ``memo_per_paragraph * paragraphs + memo_slack``,
    #: then rebuilt from the current version's (entries of plans that are gone dropped)
    memo_per_paragraph: int = 4
    memo_slack: int = 64
    #: displayed findings per chunk (an edit opens only the chunks it touches)
    chunk: int = 32
    #: chunks per block (an edit moves a block as one)
    block: int = 16


DEFAULT = Thresholds()
#: every limit at its smallest: each fallback path runs (the fuzz tests use it)
TINY = Thresholds(
    local_edits=1,
    patch_limit=0,
    seg_limit=1,
    zone_records=1,
    zone_loose=0,
    queries_per_paragraph=0,
    queries_slack=0,
    memo_per_paragraph=0,
    memo_slack=0,
    chunk=1,
    block=2,
)

_active = DEFAULT


def active() -> Thresholds:
    return _active


@contextmanager
def using(limits: Thresholds) -> Iterator[Thresholds]:
    """``limits`` in force for the block (not thread-safe: tests and benchmarks only)."""
    global _active
    before, _active = _active, limits
    try:
        yield limits
    finally:
        _active = before
