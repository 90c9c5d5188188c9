"""CAP's case metadata as evidence: the first and last page of every case of a volume.

The evidence rule (``checks/existence.py``) lets a ``fabricated-case`` *error* rest on one kind of page
range only: CAP's. CourtListener's data knows where cases begin, not where they end, and its absences
prove nothing by themselves; a page strictly between a case's first and last page in CAP's metadata, under
another name, is proof that no case begins there. So for each citation a source could not find — and for
each one found on a page that may hold several decisions (``LookupResult.page_shared``) — this module says
which CAP case the page falls in and which CAP cases begin on it.

Where the ranges come from:

- an imported CAP volume (the local corpus holds its cases with their last pages), asked first;
- the volume's ``CasesMetadata.json`` from CAP's static site (``cap_url``; the same files
  ``corpus fetch`` reads), fetched on demand when downloads are allowed (``cap_fetch``, not
  ``--offline``) — only the reporter's slug and the volume number are in the URL — and kept in the cache
  for good (``Cache.put_cap_cases``): CAP is frozen.

The file is untrusted network data: each entry is read field by field (plain strings and numbers of
bounded length; an entry that is not one is skipped), never a path or a URL.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from citecheck.errors import CitecheckError
from citecheck.sources.models import CaseCite, CaseRecord, CiteKey, LookupResult, LookupStatus
from citecheck.sources.reporters import normalise_reporter

if TYPE_CHECKING:
    from citecheck.sources.cache import Cache
    from citecheck.sources.cap_fetch import CapFetcher
    from citecheck.sources.corpus import CorpusSource
    from citecheck.sources.links import Opening

log = logging.getLogger(__name__)

#: Longest value kept from an entry (a name, a citation); longer ones are cut (names) or skipped.
MAX_TEXT = 2000
#: More entries than this in one volume's metadata is not a CAP volume.
MAX_CASES = 20_000


@dataclass(frozen=True, slots=True, kw_only=True)
class CapCase:
    """One case of a volume as CAP's metadata gives it (what the evidence needs of it)."""

    cap_id: int | None
    name: str  # name_abbreviation ("Peyton v. District of Columbia")
    name_full: str | None
    decision_date: str | None
    court: str | None
    jurisdiction: str | None
    first_page: str
    last_page: str
    cites: tuple[str, ...]  # "100 A.2d 36", the official one first

    def record(self, reporter: str, volume: str) -> CaseRecord:
        """The case as a record: its citation in this volume carries CAP's last page."""
        citations = [
            CaseCite(volume=volume, reporter=reporter, page=self.first_page, last_page=self.last_page)
        ]
        for cite in self.cites:
            parts = _split_cite(cite)
            if parts is not None and parts != (volume, reporter, self.first_page):
                citations.append(CaseCite(volume=parts[0], reporter=parts[1], page=parts[2]))
        ident = (
            f"cap:{self.cap_id}"
            if self.cap_id is not None
            else f"cap:meta:{reporter}:{volume}:{self.first_page}"
        )
        return CaseRecord(
            id=ident,
            source="cap",
            name=self.name,
            name_abbreviation=self.name,
            name_full=self.name_full,
            court_name=self.court,
            jurisdiction=self.jurisdiction,
            decision_date=self.decision_date,
            citations=tuple(citations),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class PageEvidence:
    """What CAP's metadata says of one cited page."""

    containing: CaseRecord | None = None  # the case whose pages lie strictly around the page
    beginning: tuple[CaseRecord, ...] = ()  # the cases that begin on the page
    source: str = ""  # "an imported CAP volume" | "CAP's case metadata (<url>)"


def _text(value: Any, *, limit: int = MAX_TEXT) -> str | None:
    if not isinstance(value, str) or "\x00" in value:
        return None
    value = " ".join(value.split())
    return value[:limit] or None


def _page(value: Any) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 1_000_000:
        return str(value)
    text = _text(value, limit=12)
    return text if text and text.isascii() and text.isalnum() else None


def _split_cite(cite: str) -> tuple[str, str, str] | None:
    """``"100 A.2d 36"`` → ("100", "A.2d", "36")."""
    parts = cite.split()
    if len(parts) < 3 or not parts[0].isalnum() or not parts[-1].isalnum():
        return None
    return parts[0], normalise_reporter(" ".join(parts[1:-1])), parts[-1]


def parse_cases_metadata(raw: bytes | str) -> list[CapCase]:
    """The cases of a ``CasesMetadata.json``; entries that are not a case's are skipped. Raises ValueError
    when the file is not a JSON list (another page, an error page, a truncated download).

    >>> raw = '[{"id": 1, "name_abbreviation": "A v. B", "first_page": "36", "last_page": "38",'
    >>> raw += ' "citations": [{"type": "official", "cite": "100 A.2d 36"}]}, {"id": "x"}, 7]'
    >>> [(c.name, c.first_page, c.last_page, c.cites) for c in parse_cases_metadata(raw)]
    [('A v. B', '36', '38', ('100 A.2d 36',))]
    """
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"not JSON ({exc.__class__.__name__})") from exc
    if not isinstance(data, list):
        raise ValueError("not a list of cases")
    if len(data) > MAX_CASES:
        raise ValueError(f"{len(data)} entries: more than a volume holds")
    out: list[CapCase] = []
    for entry in data:
        if not isinstance(entry, dict):
            continue
        name = _text(entry.get("name_abbreviation")) or _text(entry.get("name"))
        first, last = _page(entry.get("first_page")), _page(entry.get("last_page"))
        if name is None or first is None or last is None:
            continue
        cap_id = entry.get("id")
        court: dict[str, Any] = entry["court"] if isinstance(entry.get("court"), dict) else {}
        place: dict[str, Any] = entry["jurisdiction"] if isinstance(entry.get("jurisdiction"), dict) else {}
        cites: list[str] = []
        listed = entry.get("citations")
        for c in listed if isinstance(listed, list) else ():
            text = _text(c.get("cite"), limit=100) if isinstance(c, dict) else None
            if text is not None:
                cites.append(text)
        date = _text(entry.get("decision_date"), limit=10)
        out.append(
            CapCase(
                cap_id=cap_id if isinstance(cap_id, int) and not isinstance(cap_id, bool) else None,
                name=name,
                name_full=_text(entry.get("name")),
                decision_date=date if date and date[:4].isdigit() else None,
                court=_text(court.get("name")),
                jurisdiction=_text(place.get("name_long")),
                first_page=first,
                last_page=last,
                cites=tuple(cites),
            )
        )
    return out


def evidence_at(cases: Sequence[CapCase], reporter: str, volume: str, page: str) -> PageEvidence:
    """Which of ``cases`` (one volume's) contains ``page`` strictly, and which begin on it.

    >>> meta = parse_cases_metadata('[{"id": 1, "name_abbreviation": "A v. B", "first_page": "36", '
    ...     '"last_page": "38"}, {"id": 2, "name_abbreviation": "C v. D", "first_page": "38", "last_page": "38"}]')
    >>> ev = evidence_at(meta, "A.2d", "100", "37")
    >>> ev.containing.name, ev.beginning
    ('A v. B', ())
    >>> at38 = evidence_at(meta, "A.2d", "100", "38")
    >>> [r.name for r in at38.beginning], at38.containing
    (['C v. D'], None)
    """
    beginning = tuple(c.record(reporter, volume) for c in cases if c.first_page == page)
    containing = None
    if page.isdigit():
        p = int(page)
        for c in cases:
            if c.first_page.isdigit() and c.last_page.isdigit() and int(c.first_page) < p < int(c.last_page):
                containing = c.record(reporter, volume)
                break
    return PageEvidence(containing=containing, beginning=beginning)


def _pack(cases: Sequence[CapCase]) -> str:
    rows = [
        [c.cap_id, c.name, c.name_full, c.decision_date, c.court, c.jurisdiction, c.first_page, c.last_page,
         list(c.cites)]
        for c in cases
    ]  # fmt: skip
    return json.dumps(rows, separators=(",", ":"))


def _unpack(text: str) -> list[CapCase]:
    out = []
    for row in json.loads(text):
        cap_id, name, full, date, court, place, first, last, cites = row
        out.append(CapCase(cap_id=cap_id, name=name, name_full=full, decision_date=date, court=court,
                           jurisdiction=place, first_page=first, last_page=last, cites=tuple(cites)))  # fmt: skip
    return out


class CapRanges:
    """A link of the chain (``sources/base.py``, ``LookupReview``): CAP's page ranges for the pages no link
    found, and for found pages that may hold decisions the source does not list (``page_shared``). From the
    corpus's CAP volumes, the cache, or (``fetcher``) CAP's static site — the metadata file alone."""

    name = "cap-ranges"
    label = "CAP case metadata"

    def __init__(
        self,
        *,
        corpus: CorpusSource | None = None,
        cache: Cache | None = None,
        fetcher: CapFetcher | None = None,
        own_fetcher: bool = False,
    ) -> None:
        self.corpus = corpus
        self.cache = cache
        self.fetcher = fetcher
        self._own_fetcher = own_fetcher
        self._volumes: dict[tuple[str, str], list[CapCase] | None] = {}

    @property
    def local(self) -> bool:
        """Without a fetcher it reads only this machine's files (a local view of the chain keeps it)."""
        return self.fetcher is None

    @property
    def description(self) -> str:
        where = f"fetched from {self.fetcher.base_url} when missing" if self.fetcher else "held here"
        return f"CAP page ranges ({where})"

    def holds(self, record: CaseRecord) -> bool:
        return False  # the records it gives are CAP's: their text is the corpus's or CAP volumes'

    async def review(self, results: dict[CiteKey, LookupResult]) -> None:
        """CAP's page ranges as evidence (the evidence rule): for a page no link found, the CAP case it
        lies in and the CAP cases that begin on it; for a page that may hold decisions the source does
        not list, the others CAP lists there."""
        asked = [
            k
            for k, r in results.items()
            if r.status in (LookupStatus.NOT_FOUND, LookupStatus.CANNOT_VERIFY) or r.page_shared
        ]
        if not asked:
            return
        fetch = [k for k in asked if results[k].status is not LookupStatus.CANNOT_VERIFY]
        for k, ev in (await self.evidence(asked, fetch=fetch)).items():
            results[k] = _with_evidence(results[k], ev)

    async def evidence(
        self, keys: Sequence[CiteKey], *, fetch: Sequence[CiteKey] = ()
    ) -> dict[CiteKey, PageEvidence]:
        """Per key, what CAP says of its page (keys CAP says nothing about are left out). Volumes of the
        ``fetch`` keys may be downloaded (their metadata only) when nothing here has them."""
        out: dict[CiteKey, PageEvidence] = {}
        wanted = set(fetch)
        for key in keys:
            reporter = normalise_reporter(key.reporter)
            ev = await self._from_corpus(key, reporter)
            if ev is None:
                cases = await self._volume(reporter, key.volume, fetch=key in wanted)
                if cases:
                    ev = evidence_at(cases, reporter, key.volume, key.page)
                    ev = PageEvidence(containing=ev.containing, beginning=ev.beginning,
                                      source="CAP's case metadata")  # fmt: skip
            if ev is not None and (ev.containing is not None or ev.beginning):
                out[key] = ev
        return out

    async def _from_corpus(self, key: CiteKey, reporter: str) -> PageEvidence | None:
        """An imported CAP volume: its cases and their last pages are in the corpus."""
        if self.corpus is None:
            return None
        try:
            if not await self.corpus.has_volume(reporter, key.volume, "cap"):
                return None
            found = (await self.corpus.lookup([CiteKey(key.volume, reporter, key.page)])).get(
                CiteKey(key.volume, reporter, key.page)
            )
        except CitecheckError as exc:
            log.warning("corpus unavailable for CAP page ranges: %s", exc)
            return None
        if found is None:
            return None
        beginning = tuple(r for r in found.records if r.source == "cap")
        host = found.containing if found.containing is not None and found.containing.source == "cap" else None
        return PageEvidence(containing=host, beginning=beginning, source="an imported CAP volume")

    async def _volume(self, reporter: str, volume: str, *, fetch: bool) -> list[CapCase] | None:
        label = (reporter, volume)
        if label in self._volumes and (self._volumes[label] is not None or not fetch):
            return self._volumes[label]
        cases: list[CapCase] | None = None
        if self.cache is not None:
            try:
                packed = await self.cache.get_cap_cases(reporter, volume)
                cases = _unpack(packed) if packed is not None else None
            except (CitecheckError, ValueError, TypeError) as exc:
                log.warning("cached CAP case metadata of %s %s unusable: %s", volume, reporter, exc)
        if cases is None and fetch and self.fetcher is not None:
            cases = await self._fetch(reporter, volume)
        self._volumes[label] = cases
        return cases

    async def _fetch(self, reporter: str, volume: str) -> list[CapCase] | None:
        assert self.fetcher is not None
        try:
            raw = await self.fetcher.cases_metadata(reporter, volume)
        except CitecheckError as exc:
            log.info("CAP case metadata of %s %s not fetched: %s", volume, reporter, exc)
            return None
        if raw is None:
            return None
        try:
            cases = parse_cases_metadata(raw)
        except ValueError as exc:
            log.warning("CAP case metadata of %s %s unusable: %s", volume, reporter, exc)
            return None
        if self.cache is not None:
            try:
                await self.cache.put_cap_cases(reporter, volume, _pack(cases))
            except CitecheckError as exc:
                log.warning("could not keep CAP case metadata: %s", exc)
        return cases

    async def close(self) -> None:
        if self._own_fetcher and self.fetcher is not None:
            await self.fetcher.close()


def _with_evidence(r: LookupResult, ev: PageEvidence) -> LookupResult:
    """The answer with what CAP says of its page."""
    if r.status in (LookupStatus.FOUND, LookupStatus.AMBIGUOUS):
        held = {x.name for x in r.records}
        more = tuple(x for x in ev.beginning if x.name not in held)
        if more:  # several decisions on one page (#336): the name is compared with every one
            return replace(r, status=LookupStatus.AMBIGUOUS, records=(*r.records, *more), page_shared=False)
        return replace(r, page_shared=False) if ev.beginning else r  # CAP lists no other case there
    if ev.beginning:  # CAP lists a case beginning here that the other links lack
        return LookupResult(
            key=r.key,
            status=LookupStatus.FOUND if len(ev.beginning) == 1 else LookupStatus.AMBIGUOUS,
            records=ev.beginning,
            source="cap",
            reason="; ".join(x for x in (f"found in {ev.source}", r.reason) if x),
            volume_complete=r.volume_complete,
        )
    if ev.containing is not None and (r.containing is None or r.containing.id != ev.containing.id):
        reason = "; ".join(x for x in (r.reason, f"page ranges from {ev.source}") if x)
        return replace(r, containing=ev.containing, reason=reason)
    return r


async def open_cap_ranges(o: Opening) -> CapRanges:
    """CAP's page ranges: always (the corpus's CAP volumes and the cache answer offline); fetched from CAP's
    static site only when CAP downloads are allowed (``cap_fetch``, not ``--offline``), with the CAP volume
    download's fetcher when the chain has one (one budget for both)."""
    from citecheck.sources.cache import Cache
    from citecheck.sources.corpus import CorpusSource

    settings = o.settings
    cache = o.find(Cache)
    fetcher, own = None, False
    if settings.cap_fetch and not settings.offline:
        from citecheck.sources.cap_fetch import CapFetcher  # the HTTP client: only when it may be used
        from citecheck.sources.cap_volumes import CapVolumes

        volumes = o.find(CapVolumes)
        if volumes is not None:
            fetcher = volumes.fetcher
        else:
            budget = None if o.interactive else settings.cap_budget_s
            fetcher = CapFetcher(
                settings.cap_url, timeout_s=settings.http_timeout_s, cache=cache, budget_s=budget
            )
            own = True
    return CapRanges(corpus=o.find(CorpusSource), cache=cache, fetcher=fetcher, own_fetcher=own)


__all__ = ["CapCase", "CapRanges", "PageEvidence", "evidence_at", "open_cap_ranges", "parse_cases_metadata"]
