"""The Constitution Annotated's table of Supreme Court decisions overruled: the shipped copy and its refresh.

The package ships the table (``citecheck/data/overruled-decisions.csv``, provenance beside it), so a
fresh install warns on an overruled Supreme Court decision offline. ``citecheck corpus sync`` fetches the
Congress.gov page (``overruled_url``), reads its table (``treatment/table.py``: any HTML table whose
header names the overruling and the overruled decisions, or a CSV in the shipped copy's columns) and, when
it reads as at least as many overruled decisions as the shipped copy holds (a page whose markup changed
must not empty the table), keeps it as ``overruled-decisions.csv`` in the user data folder with a
``.json`` beside it saying where and when it came from; checks prefer that copy. The page is public and
nothing about any document is sent.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from citecheck.errors import BadResponse, SourceUnavailable
from citecheck.sources.models import CiteKey
from citecheck.treatment.models import Treatment
from citecheck.treatment.table import (
    ParsedTable,
    parse_csv,
    parse_rows,
    records_from_html,
    to_csv,
    treatments,
)

if TYPE_CHECKING:  # imported by ``refresh``: a check reads the shipped table and needs no HTTP client
    import httpx

log = logging.getLogger(__name__)

SHIPPED = "overruled-decisions.csv"
#: The most a page may weigh (the real one is a few hundred kB of HTML).
MAX_PAGE_BYTES = 8 << 20


@dataclass(frozen=True, slots=True, kw_only=True)
class CongressTable:
    """The table a check uses: by citation key, and in words where it came from."""

    by_key: dict[CiteKey, tuple[Treatment, ...]]
    description: (
        str  # "the Constitution Annotated's table … (Congress.gov; copy shipped with citecheck, 2025-10-17)"
    )
    pairs: int


def shipped_text() -> str:
    return resources.files("citecheck").joinpath("data", SHIPPED).read_text(encoding="utf-8")


def _index(table: ParsedTable, description: str) -> CongressTable:
    by_key: dict[CiteKey, list[Treatment]] = {}
    for key, t in treatments(table, source=description):
        by_key.setdefault(key, []).append(t)
    return CongressTable(
        by_key={k: tuple(v) for k, v in by_key.items()}, description=description, pairs=table.pairs
    )


@lru_cache(maxsize=4)
def _load(path: str | None, stamp: float) -> CongressTable:
    shipped = parse_csv(shipped_text())
    if path is not None:
        try:
            refreshed = parse_csv(Path(path).read_text(encoding="utf-8"))
            meta = _read_meta(Path(path))
            if refreshed.pairs >= shipped.pairs:
                when = str(meta.get("fetched", ""))[:10]
                return _index(refreshed, f"the Constitution Annotated's table of Supreme Court decisions overruled "
                                         f"(Congress.gov, refreshed {when})")  # fmt: skip
            log.warning(
                "%s holds fewer decisions than the copy citecheck ships; using the shipped copy", path
            )
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            log.warning("cannot read the refreshed table of decisions overruled %s (%s); using the shipped copy",
                        path, exc)  # fmt: skip
    return _index(shipped, "the Constitution Annotated's table of Supreme Court decisions overruled "
                           "(Congress.gov; the copy shipped with citecheck, October 2025)")  # fmt: skip


def load_table(refreshed: Path | None = None) -> CongressTable:
    """The table: the refreshed copy at ``refreshed`` when there is a good one, else the shipped copy."""
    if refreshed is not None and refreshed.exists():
        return _load(str(refreshed), refreshed.stat().st_mtime)
    return _load(None, 0.0)


def _meta_path(path: Path) -> Path:
    return path.with_suffix(".json")


def _read_meta(path: Path) -> dict[str, object]:
    try:
        data = json.loads(_meta_path(path).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


@dataclass(frozen=True, slots=True, kw_only=True)
class RefreshResult:
    pairs: int
    kept: bool  # False: the page read as fewer decisions than the shipped copy; nothing was written
    path: Path
    url: str


def parse_page(body: bytes, content_type: str = "") -> ParsedTable:
    """The table from what ``overruled_url`` served: the Congress.gov HTML page, or a CSV copy."""
    text = body.decode("utf-8", errors="replace")
    if "csv" in content_type.lower() or text.lstrip("\ufeff").startswith('"Order"'):
        return parse_csv(text)
    return parse_rows(records_from_html(text))


async def refresh(
    url: str, path: Path, *, client: httpx.AsyncClient | None = None, timeout_s: float = 30.0
) -> RefreshResult:
    """Fetch the table from ``url`` and keep it at ``path`` when it is at least as complete as the shipped one."""
    import httpx

    own = client is None
    client = client or httpx.AsyncClient(timeout=httpx.Timeout(timeout_s, connect=10.0), follow_redirects=True,
                                         headers={"User-Agent": "citecheck"})  # fmt: skip
    try:
        try:
            response = await client.get(url)
        except httpx.HTTPError as exc:
            raise SourceUnavailable(f"cannot reach {url} ({exc.__class__.__name__})") from exc
        if response.status_code != 200:
            raise SourceUnavailable(f"{url} answered {response.status_code}")
        body = response.content
        if len(body) > MAX_PAGE_BYTES:
            raise BadResponse(f"{url} sent more than {MAX_PAGE_BYTES} bytes")
        table = parse_page(body, response.headers.get("content-type", ""))
    finally:
        if own:
            await client.aclose()
    shipped = parse_csv(shipped_text())
    if table.pairs < shipped.pairs:
        return RefreshResult(pairs=table.pairs, kept=False, path=path, url=url)
    records = [
        {
            "Order": r.order,
            "Overruling Decision": _as_written(r.overruling),
            "Year of Overruling Decision": str(r.overruling.year or ""),
            "Overruled Decision(s)": "; ".join(_as_written(d) for d in r.overruled),
            "Year(s) of Overruled Decision(s)": "".join(str(d.year or "") for d in r.overruled),
        }
        for r in table.rows
    ]
    data = to_csv(records)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.write_text(data, encoding="utf-8")
    os.replace(tmp, path)
    meta = {"url": url, "fetched": datetime.now(UTC).isoformat(timespec="seconds"), "pairs": table.pairs,
            "sha256": hashlib.sha256(data.encode("utf-8")).hexdigest()}  # fmt: skip
    _meta_path(path).write_text(json.dumps(meta, indent=1), encoding="utf-8")
    _load.cache_clear()
    return RefreshResult(pairs=table.pairs, kept=True, path=path, url=url)


def _as_written(d: object) -> str:
    from citecheck.treatment.table import Decision

    assert isinstance(d, Decision)
    out = f"{d.name}, {d.citation}"
    if d.year is not None and not (d.citation or "").startswith("No."):
        out += f" ({d.year})"
    return out + "".join(f" ({n})" for n in d.notes)


__all__ = ["CongressTable", "RefreshResult", "load_table", "parse_page", "refresh", "shipped_text"]
