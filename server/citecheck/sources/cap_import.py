"""Import CAP static volumes (the case.law layout) into the corpus.

A volume folder holds ``CasesMetadata.json`` (every case of the volume), ``cases/<file>.json`` and
``html/<file>.html``. Page positions come from the HTML's ``page-label`` anchors: the JSON's
opinion text has no page markers. A volume is marked complete only when its cases tile its pages
(see ``corpus.tiles_volume``); the trimmed sample of 100 A.2d does not.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from citecheck.errors import ImportFormatError
from citecheck.sources.corpus import Corpus, tiles_volume
from citecheck.sources.importing import ImportStats, NullProgress, ProgressSink
from citecheck.sources.models import CaseCite, CaseRecord, PageMap
from citecheck.sources.pagination import derived_last_page, html_to_text, page_maps
from citecheck.sources.reporters import cap_slug, normalise_reporter
from citecheck.sources.safe_names import inside, safe_component

_SAFE_URL_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def find_cap_volumes(path: Path) -> list[Path]:
    """Volume folders under ``path`` (itself, or up to two levels down: <reporter>/<volume>)."""
    if (path / "CasesMetadata.json").is_file():
        return [path]
    found = sorted(p.parent for p in path.glob("*/CasesMetadata.json"))
    found += sorted(p.parent for p in path.glob("*/*/CasesMetadata.json"))
    return found


@lru_cache(maxsize=1024)
def _court_id(name: str) -> str | None:
    """courts-db id for a CAP court name, when exactly one court matches."""
    try:
        from courts_db import find_court

        ids = find_court(name)
    except Exception:  # courts-db is best effort: an unknown court leaves court_id empty
        return None
    return ids[0] if len(ids) == 1 else None


CASE_LAW_VIEWER = "https://case.law/caselaw/"
#: Parties a short form never uses (it names the other side): "State v. Dyous" → "Dyous".
_GENERIC_PARTIES = frozenset(
    {"state", "people", "commonwealth", "united states", "the state", "the people", "district of columbia"}
)


def short_name(name: str) -> str | None:
    """A short-form name the way courts write it: the first non-generic party, or "In re X".

    >>> short_name("Peyton v. District of Columbia"), short_name("State v. Dyous"), short_name("In re J.W.")
    ('Peyton', 'Dyous', 'In re J.W.')
    """
    if name.lower().startswith(("in re ", "ex parte ", "matter of ")):
        return name
    parties = [p.strip(" ,.") for p in name.split(" v. ")]
    for party in parties:
        if party and party.lower() not in _GENERIC_PARTIES and not party.lower().startswith("state of "):
            return party.split(",")[0].strip()
    return parties[0] or None


def _split_cite(cite: str) -> tuple[str, str, str] | None:
    parts = cite.split()
    if len(parts) < 3 or not parts[0].isdigit():
        return None
    return parts[0], normalise_reporter(" ".join(parts[1:-1])), parts[-1]


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ImportFormatError(f"{path}: not readable CAP JSON ({exc})") from exc


def case_record(
    meta: dict[str, Any], url_base: str | None = None, *, case_law_links: bool = False
) -> CaseRecord:
    """CaseRecord from one CAP case's metadata (CasesMetadata entry or cases/*.json).

    ``url`` is the download URL when fetched; for a local import, a case.law viewer link only when
    ``case_law_links`` (off by default: reports and their golden files show no link for local cases).
    """
    cites: list[CaseCite] = []
    first, last = str(meta.get("first_page") or ""), meta.get("last_page")
    for i, c in enumerate(meta.get("citations") or []):
        split = _split_cite(str(c.get("cite", "")))
        if split is None:
            continue
        vol, rep, page = split
        # CAP's first_page/last_page belong to the first (official) cite
        last_page = str(last) if i == 0 and last and page == first else None
        cites.append(CaseCite(volume=vol, reporter=rep, page=page, last_page=last_page, type=c.get("type")))
    court = meta.get("court") or {}
    juris = meta.get("jurisdiction") or {}
    url = None
    fname = meta.get("file_name")
    if cites and isinstance(fname, str) and _SAFE_URL_PART.fullmatch(fname):
        slug, vol = cap_slug(cites[0].reporter), cites[0].volume
        if url_base:  # where it was downloaded from (maybe a firm's mirror)
            url = f"{url_base.rstrip('/')}/{slug}/{vol}/cases/{fname}.json"
        elif case_law_links:
            url = f"{CASE_LAW_VIEWER}?reporter={slug}&volume={vol}&case={fname}"
    name_abbr = meta.get("name_abbreviation")
    return CaseRecord(
        id=f"cap:{meta.get('id')}",
        source="cap",
        name=name_abbr or meta.get("name") or "",
        name_short=short_name(name_abbr) if name_abbr else None,
        name_full=meta.get("name"),
        name_abbreviation=name_abbr,
        court_id=_court_id(court["name"]) if court.get("name") else None,
        court_name=court.get("name"),
        jurisdiction=juris.get("name_long") or juris.get("name"),
        decision_date=meta.get("decision_date"),
        citations=tuple(cites),
        url=url,
    )


def _record_id(case: dict[str, Any]) -> str:
    """``cap:<id>``; for an entry without a usable id, one derived from its first citation and name.

    Every case of a volume exported with ``"id": null`` would otherwise become ``cap:None`` and
    overwrite the one before it. The derived id is stable, so a re-import replaces, never doubles.
    """
    cid = case.get("id")
    if isinstance(cid, int | str) and not isinstance(cid, bool) and str(cid).strip():
        return f"cap:{cid}"
    cites = [str(c.get("cite", "")).strip() for c in case.get("citations") or () if isinstance(c, dict)]
    cites = [c for c in cites if c]
    if not cites:
        raise ImportFormatError("a case has neither an id nor a citation")
    key = "|".join((cites[0], str(case.get("name_abbreviation") or case.get("name") or "")))
    return "cap:x" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _iter_volume_cases(
    folder: Path, refusals: list[str]
) -> Iterator[tuple[dict[str, Any], str, Path | None]]:
    meta = _load_json(folder / "CasesMetadata.json")
    if not isinstance(meta, list):
        raise ImportFormatError(f"{folder / 'CasesMetadata.json'}: expected a list of cases")
    for case in meta:
        if not isinstance(case, dict):
            refusals.append("a case entry is not an object")
            continue
        try:
            record_id = _record_id(case)
            name = case.get("file_name")
            html_path = inside(folder, "html", safe_component(name) + ".html") if name else None
        except ImportFormatError as exc:  # refused and counted, never merged or followed
            refusals.append(str(exc))
            continue
        yield case, record_id, html_path if html_path is not None and html_path.is_file() else None


def import_cap_volume(
    corpus: Corpus, folder: Path, *, url_base: str | None = None, progress: ProgressSink | None = None
) -> ImportStats:
    """Import one volume folder; idempotent (cases are replaced by id)."""
    progress = progress or NullProgress()
    cases = opinions = citations = 0
    first_cites: list[CaseCite] = []
    refusals: list[str] = []
    with corpus.transaction():
        for meta, record_id, html_path in _iter_volume_cases(folder, refusals):
            record = replace(case_record(meta, url_base), id=record_id)
            text = None
            maps: tuple[PageMap, ...] = ()
            if html_path is not None:
                record, text, maps = _with_text(record, html_path)
                opinions += 1
            corpus.upsert_case(record, text, maps)
            cases += 1
            citations += len(record.citations)
            if record.citations:
                first_cites.append(record.citations[0])
            progress.advance(1)
        volumes: set[tuple[str, str]] = {(c.reporter, c.volume) for c in first_cites}
        complete: list[str] = []
        for reporter, volume in sorted(volumes):
            last = _last_page_if_whole(
                [c for c in first_cites if (c.reporter, c.volume) == (reporter, volume)]
            )
            corpus.mark_volume(reporter, volume, "cap", complete=last is not None, last_page=last)
            if last is not None:
                complete.append(f"{volume} {reporter}")
    return ImportStats(
        format="cap",
        cases=cases,
        opinions=opinions,
        citations=citations,
        rows=cases,
        volumes=tuple(f"{v} {r}" for r, v in sorted(volumes)),
        complete_volumes=tuple(complete),
        refused=len(refusals),
        refusal=refusals[0] if refusals else None,
    )


def _with_text(record: CaseRecord, html_path: Path) -> tuple[CaseRecord, str, tuple[PageMap, ...]]:
    """The case's opinion text and page maps from its HTML file; a first citation without its last page
    takes the last page label of the text."""
    try:
        raw_html = html_path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ImportFormatError(f"{html_path}: cannot read ({exc})") from exc
    parsed = html_to_text(raw_html)
    if record.citations and record.citations[0].last_page is None:
        labels = [m.label for m in parsed.markers if m.index == 1]
        c0 = record.citations[0]
        fixed = CaseCite(
            volume=c0.volume,
            reporter=c0.reporter,
            page=c0.page,
            last_page=derived_last_page(c0.page, labels),
            type=c0.type,
        )
        record = _with_cites(record, (fixed, *record.citations[1:]))
    return record, parsed.text, page_maps(parsed.markers, record.citations)


def _last_page_if_whole(first_cites: list[CaseCite]) -> str | None:
    """The volume's last page when its cases' page ranges (every one known) tile it; else None."""
    ranges = []
    for c in first_cites:
        if not (c.page.isdigit() and c.last_page and c.last_page.isdigit()):
            return None
        ranges.append((int(c.page), int(c.last_page)))
    return str(max(b for _, b in ranges)) if tiles_volume(ranges) else None


def _with_cites(record: CaseRecord, cites: tuple[CaseCite, ...]) -> CaseRecord:
    return replace(record, citations=cites)


def count_cap_cases(folders: list[Path]) -> int:
    total = 0
    for f in folders:
        meta = _load_json(f / "CasesMetadata.json")
        total += len(meta) if isinstance(meta, list) else 0
    return total
