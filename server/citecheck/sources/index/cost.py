"""What ``citecheck corpus sync`` costs a user, in one place: the first-run summary and the README's "Get
the index" section say the same figures (``tests/test_readme.py`` holds them together). Pure values.

Where the figures come from (docs/performance.md, "The citation index at CourtListener's scale"):

- **download** — the four files the index reads, at CourtListener's published sizes (the 2025-12-02 dump:
  dockets 4.5 GB, opinion-clusters 2.3 GB, courts 79 kB; citations about 0.25 GB): an estimate, the 2026
  files could not be reached from the machine that measured;
- **build** — ``bench/index.py`` at CourtListener's scale (10 M citations, 9 M clusters, the dockets'
  rows): the build from ``.bz2`` is bound by decompression: 17–31 minutes on two cores at load 3–6, ~42 at
  load 8–10 (2026-12-04), measured on a synthetic dump of the real format and extrapolated to the real
  files' sizes; the figure given is the range a user can expect, rounded out;
- **disk** — while it builds: the downloads plus the bytes the build writes (the staged cases and
  dockets, then the index: 2.0 × the index); afterwards the index alone (the downloads are deleted).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SyncCost:
    download_gb: float
    build_minutes: tuple[int, int]
    disk_during_gb: float
    disk_after_gb: float

    def describe(self) -> str:
        """``downloads about 7 GB …`` (for the summary and the README)."""
        lo, hi = self.build_minutes
        return (
            f"downloads about {self.download_gb:g} GB of CourtListener's public bulk files, builds in about "
            f"{lo}–{hi} minutes on two cores, and needs about {self.disk_during_gb:g} GB of free disk while "
            f"it builds ({self.disk_after_gb:g} GB afterwards)"
        )


#: The figures (estimates where the module docstring says so); update them with a new measurement.
SYNC_COST = SyncCost(download_gb=7, build_minutes=(20, 45), disk_during_gb=11, disk_after_gb=2)
