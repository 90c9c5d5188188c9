"""The source chain: a list of links (``sources/base.py``), asked capability by capability, in order.

``sources/links.py`` opens the links the settings ask for — local corpus → citation index → cache → CAP
volumes on demand → CourtListener (or what says why it is off) → statute index — and the chain asks them:

- **lookup**: each key walks the links until one answers it definitively (FOUND, AMBIGUOUS, or NOT_FOUND
  from a source that covers the volume) or a store (the cache) answers it at all; everything else falls
  through and, if nothing covers the citation, ends as CANNOT_VERIFY with every link's reason. A failing
  link is a reason, never a NOT_FOUND. What a link that is not local answered is given to the stores.
- **opinion text**: the links in order until one has it; a link that is not local is asked only for the
  records it holds, and the origin of a record (CourtListener for its clusters) has the last word. A case
  that only a metadata link resolved raises ``TextNotHere`` (the checks then say why they did not run).
- **passage search**: local links only (the passage is the draft's words). **Name search**: every link that
  has it (local ones only when ``remote=False``). **Statutes** and **treatment**: the links that have them.

``local_view(reason)`` is the same chain seen through the links on this machine (it follows the chain: a
link taken up later is in both). ``SourceChain([...])`` takes explicit links, for tests and for embedding;
``open_source(settings)`` builds the chain the settings ask for.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from citecheck.config import Settings
from citecheck.errors import CitecheckError, TextNotHere
from citecheck.sources.base import (
    AnswerStore,
    CaseLookup,
    Link,
    LookupReview,
    LookupStep,
    NameLookup,
    OpinionTexts,
    PacedLink,
    PassageSearch,
    PendingLink,
    StatuteLookup,
    TreatmentLookup,
    Unavailable,
)
from citecheck.sources.models import (
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    NameHit,
    NameSearch,
    OpinionText,
    PassageHit,
    Treatment,
)
from citecheck.sources.reporters import is_database, normalise_reporter

if TYPE_CHECKING:
    from citecheck.sources.pacing import WorkOrder
    from citecheck.sources.statutes.index import StatuteKeyLike
    from citecheck.sources.statutes.records import SectionRecord, StatuteAnswer

log = logging.getLogger(__name__)
L = TypeVar("L")

_DEFINITIVE = (LookupStatus.FOUND, LookupStatus.AMBIGUOUS, LookupStatus.NOT_FOUND)


# ------------------------------------------------------------------------------ what a link says of itself
def label_of(link: object) -> str:
    """How reasons name the link ("local corpus unavailable: …")."""
    return str(getattr(link, "label", None) or getattr(link, "name", None) or type(link).__name__)


def is_local(link: object) -> bool:
    """Whether the link answers from this machine and sends nothing anywhere."""
    return bool(getattr(link, "local", False))


def holds(link: object, record: CaseRecord) -> bool:
    """Whether the link can give the record's text (by default: the record came from it)."""
    own = getattr(link, "holds", None)
    return bool(own(record)) if own is not None else record.source == getattr(link, "name", None)


def _description(link: object) -> str:
    text = getattr(link, "description", None)
    return label_of(link) if text is None else str(text)


def _join(*reasons: str) -> str:
    seen: list[str] = []
    for r in reasons:
        if r and r not in seen:
            seen.append(r)
    return "; ".join(seen)


# ------------------------------------------------------------------------------ the lookup walk
class LookupWalk:
    """One lookup, handed to each link in turn: the keys asked, the answers that ended their walk
    (``results``), and for the others what the links so far said (``partial``: reasons joined, the case
    whose pages contain the cited one kept). ``fresh`` collects what links that are not local answered,
    for the stores."""

    def __init__(self, keys: Iterable[CiteKey]) -> None:
        self.wanted = list(dict.fromkeys(keys))
        self.results: dict[CiteKey, LookupResult] = {}
        self.partial: dict[CiteKey, LookupResult] = {}
        self.fresh: list[LookupResult] = []

    @property
    def todo(self) -> list[CiteKey]:
        """The keys no link has answered for good yet."""
        return [k for k in self.wanted if k not in self.results]

    def settle_databases(self) -> None:
        """Westlaw/Lexis database citations: no public source covers them, none is asked."""
        for k in self.wanted:
            if is_database(normalise_reporter(k.reporter)):
                self.results[k] = LookupResult(
                    key=k,
                    status=LookupStatus.CANNOT_VERIFY,
                    reason=f"{k.reporter} is a Westlaw/Lexis database citation; no public source covers it",
                )

    def settle(self, key: CiteKey, r: LookupResult) -> LookupResult:
        """``r`` ends the key's walk; a CANNOT_VERIFY (from a store) keeps the reasons said before it, and
        an answer that names no containing case keeps the one an earlier link knew."""
        prev = self.partial.pop(key, None)
        if prev is not None:
            if r.status is LookupStatus.CANNOT_VERIFY:
                r = replace(
                    r, reason=_join(prev.reason, r.reason), containing=r.containing or prev.containing
                )
            elif r.containing is None and prev.containing is not None:
                r = replace(r, containing=prev.containing)
        self.results[key] = r
        return r

    def note(self, key: CiteKey, reason: str, r: LookupResult | None = None) -> None:
        """The key is not settled; add ``reason`` (and what ``r`` knows) to what was said of it."""
        prev = self.partial.get(key)
        self.partial[key] = LookupResult(
            key=key,
            status=LookupStatus.CANNOT_VERIFY,
            source=(prev.source if prev else None) or (r.source if r else None),
            reason=_join(prev.reason if prev else "", reason),
            containing=(prev.containing if prev else None) or (r.containing if r else None),
            pending_until=(r.pending_until if r else None) or (prev.pending_until if prev else None),
        )

    async def ask(
        self, link: CaseLookup, keys: Sequence[CiteKey] | None = None, *, anew: bool = False
    ) -> None:
        """Ask ``link`` about ``keys`` (default: those left). Definitive answers (any answer, from a store)
        settle their keys; a CANNOT_VERIFY adds its reason — or, with ``anew``, replaces what was said
        (the corpus asked again after a download: its new answer is the one that counts)."""
        keys = self.todo if keys is None else list(keys)
        if not keys:
            return
        label, store = label_of(link), isinstance(link, AnswerStore)
        try:
            answers = await link.lookup(keys)
        except Exception as exc:  # a bug in one source must not sink the whole check
            if not isinstance(exc, CitecheckError):
                log.exception("%s lookup failed", label)
            if store:  # a store only holds what others answered: losing it loses no coverage
                log.warning("%s unavailable: %s", label, exc)
                return
            why = f"{label} unavailable: {exc}" if isinstance(exc, CitecheckError) else None
            for k in keys:
                self.note(k, why or f"{label} failed ({exc.__class__.__name__})")
            return
        remember = not is_local(link)
        for k in keys:
            r = answers.get(k)
            if r is None:
                if not store:
                    self.note(k, f"{label} returned no answer")
            elif store or r.status in _DEFINITIVE:
                settled = self.settle(k, r)
                if remember:
                    self.fresh.append(settled)
            elif anew:
                self.partial[k] = r
            else:
                self.note(k, r.reason or f"{label} could not verify it", r)
                if remember and r.source and r.reason:
                    # a coverage fact (a 404 in a volume CourtListener holds only in part) is worth keeping
                    # briefly; a transient failure comes with source=None and is not
                    self.fresh.append(r)

    def finish(self, fallback: str) -> dict[CiteKey, LookupResult]:
        for k in self.wanted:
            if k not in self.results:
                self.results[k] = self.partial.get(k) or LookupResult(
                    key=k, status=LookupStatus.CANNOT_VERIFY, reason=fallback
                )
        return {k: self.results[k] for k in self.wanted}


# ------------------------------------------------------------------------------ the chain
class SourceChain:
    """An AuthoritySource made of links, asked in the order given; see the module docstring."""

    name = "chain"

    def __init__(self, links: Iterable[Link] = (), *, say_missing_text: bool = True) -> None:
        #: ``say_missing_text``: a case only a metadata link resolved raises TextNotHere from ``opinion`` (so
        #: quote and pin checks say they were not run); a view that answers only from this machine before
        #: the full chain does (the language server's first stage) passes False
        self.say_missing_text = say_missing_text
        self._links: list[Link] = list(links)
        self._parent: SourceChain | None = None
        self._off: Unavailable | None = None
        for link in self._links:
            joined = getattr(link, "joined", None)
            if joined is not None:
                joined(self)

    @property
    def links(self) -> list[Link]:
        """The links, in order (a local view: its chain's local links, and what says why the rest is not)."""
        if self._parent is None:
            return self._links
        out: list[Link] = []
        for link in self._parent.links:
            if is_local(link):
                out.append(link)
            elif self._off is not None and self._off not in out:
                out.append(self._off)
        if self._off is not None and self._off not in out:
            out.append(self._off)
        return out

    def local_view(self, reason: str) -> SourceChain:
        """This chain through its local links only, ``reason`` standing for the others; it reports no
        missing text (the full chain does) and closes nothing (the chain owns the links)."""
        view = SourceChain(say_missing_text=False)
        view._parent, view._off = self, Unavailable(reason)
        return view

    def find(self, kind: type[L]) -> L | None:
        """The first link of this type (None when the chain has none)."""
        return next((link for link in self.links if isinstance(link, kind)), None)

    @property
    def pending(self) -> bool:
        """Whether a link is not there yet (the citation index before its first sync)."""
        return any(isinstance(link, PendingLink) for link in self.links)

    async def take_up_pending(self) -> bool:
        """Put each pending link that now exists in its place; True if one was taken up now."""
        if self._parent is not None:
            return await self._parent.take_up_pending()
        took = False
        for i, link in enumerate(self._links):
            if isinstance(link, PendingLink) and (found := await link.poll()) is not None:
                self._links[i] = found
                took = True
        return took

    # ------------------------------------------------------------------ lookups
    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        await self.take_up_pending()
        return await self._walk(keys, self.links, fallback="no source covers this citation")

    async def lookup_local(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        """``lookup`` from the links on this machine only: no download, no request to a service (the
        near misses of a citation are many and must not spend a service's allowance)."""
        local = [link for link in self.links if is_local(link)]
        return await self._walk(keys, local, fallback="not held on this machine")

    async def _walk(
        self, keys: Sequence[CiteKey], links: Sequence[Link], *, fallback: str
    ) -> dict[CiteKey, LookupResult]:
        walk = LookupWalk(keys)
        walk.settle_databases()
        for link in links:
            if not walk.todo:
                break
            if isinstance(link, LookupStep):
                await self._step(link, walk)
            elif isinstance(link, CaseLookup):
                await walk.ask(link)
        if walk.fresh:
            await self._remember_lookups(walk.fresh)
        results = walk.finish(fallback)
        for link in links:
            if isinstance(link, LookupReview):
                try:
                    await link.review(results)
                except Exception:  # evidence is a bonus: a failure leaves the answers as they were
                    log.exception("%s failed", label_of(link))
        return results

    @staticmethod
    async def _step(link: LookupStep, walk: LookupWalk) -> None:
        label = label_of(link)
        try:
            await link.step(walk)
        except Exception as exc:  # a bug in one source must not sink the whole check
            if not isinstance(exc, CitecheckError):
                log.exception("%s failed", label)
            for k in walk.todo:
                walk.note(k, f"{label} unavailable: {exc}")

    async def _remember_lookups(self, fresh: list[LookupResult]) -> None:
        for store in self._stores():
            try:
                await store.remember_lookups(fresh)
            except CitecheckError as exc:
                log.warning("could not write %s: %s", label_of(store), exc)

    def _stores(self) -> list[AnswerStore]:
        return [link for link in self.links if isinstance(link, AnswerStore)]

    # ------------------------------------------------------------------ texts
    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        return await self._opinion(record, self.links, say_missing=self.say_missing_text)

    async def opinion_local(self, record: CaseRecord) -> OpinionText | None:
        """The text from the links on this machine only (a candidate's text is worth no request)."""
        return await self._opinion(record, [link for link in self.links if is_local(link)], say_missing=False)

    async def _opinion(
        self, record: CaseRecord, links: Sequence[Link], *, say_missing: bool
    ) -> OpinionText | None:
        for link in links:
            if not isinstance(link, OpinionTexts):
                continue
            if is_local(link):
                try:
                    text = await link.opinion(record)
                except CitecheckError as exc:
                    log.warning("%s unavailable: %s", label_of(link), exc)
                    continue
                if text is not None:
                    return text
                continue
            if not holds(link, record):
                continue
            # a fetch that failed (or waits for the allowance) raises: the pipeline says so in an
            # opinion-unavailable finding instead of letting quote and pin checks pass unchecked
            text = await link.opinion(record)
            origin = record.source == getattr(link, "name", None)
            if text is not None and origin:
                await self._remember_opinion(record, text)
            if text is not None or origin:
                return text
        if say_missing and any(getattr(k, "metadata_only", False) and holds(k, record) for k in links):
            # a case a metadata link resolved: a quote or pin cite of it is not checked until its text is
            # here; say so instead of passing in silence
            how = next((k.reason for k in links if isinstance(k, Unavailable)), "")
            raise TextNotHere(
                "the citation index holds no opinion text and it could not be fetched "
                f"({how or 'no source on this machine has its text'}); "
                "import its volume or set a CourtListener token to check it"
            )
        return None

    async def _remember_opinion(self, record: CaseRecord, text: OpinionText) -> None:
        for store in self._stores():
            try:
                await store.remember_opinion(record, text)
            except CitecheckError as exc:
                log.warning("could not write %s: %s", label_of(store), exc)

    async def find_passage(self, passage: str, *, limit: int = 5) -> list[PassageHit]:
        hits: list[PassageHit] = []
        for link in self.links:
            if not isinstance(link, PassageSearch) or not is_local(link) or len(hits) >= limit:
                continue
            try:
                more = await link.find_passage(passage, limit=limit - len(hits))
            except CitecheckError as exc:
                log.warning("passage search failed: %s", exc)
                continue
            seen = {h.case.id for h in hits}
            hits.extend(h for h in more if h.case.id not in seen)
        return hits[:limit]

    # ------------------------------------------------------------------ names
    async def find_by_name(
        self,
        name: str,
        *,
        limit: int = 5,
        court: str | None = None,
        years: tuple[int, int] | None = None,
        remote: bool = True,
    ) -> NameSearch:
        """Cases named ``name`` from every link that searches names (with ``remote`` False, only those on
        this machine), CourtListener's paced like every request to it. A failing link is a note in
        ``failed``, never an error. The draft's court is not a filter (it may be the slip)."""
        await self.take_up_pending()
        hits: list[NameHit] = []
        asked: list[str] = []
        failed: list[str] = []
        covering: str | None = None
        for link in self.links:
            if not isinstance(link, NameLookup) or not (remote or is_local(link)):
                continue
            label = label_of(link)
            try:
                found = await link.find_by_name(name, limit=limit, court=court, years=years)
            except CitecheckError as exc:
                failed.append(f"{label}: {exc}")
                continue
            except Exception as exc:  # a bug in one source must not sink the check
                log.exception("name search in %s failed", label)
                failed.append(f"{label} failed ({exc.__class__.__name__})")
                continue
            asked.extend(found.asked or (label,))
            hits.extend(h for h in found.hits if not any(_same_case(h.record, k.record) for k in hits))
            covering = covering or found.covering
        hits.sort(key=lambda h: -h.score)
        return NameSearch(
            hits=tuple(hits[:limit]), asked=tuple(asked), covering=covering, failed="; ".join(failed) or None
        )

    # ------------------------------------------------------------------ statutes
    async def lookup_statutes(
        self, keys: Sequence[StatuteKeyLike], *, as_of: str | None = None
    ) -> dict[StatuteKeyLike, StatuteAnswer]:
        """Each statute or regulation key as the statute links answer it (NOT_COVERED without one); a key
        one link does not cover is asked of the next. Never raises (the links never do)."""
        from citecheck.sources.statutes.records import LookupOutcome, StatuteAnswer

        wanted = list(dict.fromkeys(keys))
        why = "no statute index (run: citecheck corpus sync --statutes)"
        out: dict[StatuteKeyLike, StatuteAnswer] = {
            k: StatuteAnswer(outcome=LookupOutcome.NOT_COVERED, reason=why) for k in wanted
        }
        for link in self.links:
            left = [k for k in wanted if out[k].outcome is LookupOutcome.NOT_COVERED]
            if isinstance(link, StatuteLookup) and left:
                out.update(await link.lookup_statutes(left, as_of=as_of))
        return out

    async def statute_text(self, record: SectionRecord) -> str | None:
        """The section's text from the first statute link that has it (None when none can read it)."""
        for link in self.links:
            if isinstance(link, StatuteLookup) and (text := await link.statute_text(record)) is not None:
                return text
        return None

    # ------------------------------------------------------------------ treatment
    async def treatment(self, keys: Sequence[CiteKey]) -> dict[CiteKey, tuple[Treatment, ...]]:
        """What the treatment links say later courts did to the cases cited by ``keys`` (only keys some link
        knows of). A failing link is logged and skipped: no treatment is never proof of good law."""
        out: dict[CiteKey, tuple[Treatment, ...]] = {}
        wanted = list(dict.fromkeys(keys))
        for link in self.links:
            if not isinstance(link, TreatmentLookup) or not wanted:
                continue
            try:
                answers = await link.treatment(wanted)
            except Exception as exc:
                if not isinstance(exc, CitecheckError):
                    log.exception("treatment lookup in %s failed", label_of(link))
                else:
                    log.warning("%s unavailable: %s", label_of(link), exc)
                continue
            for k, found in answers.items():
                out[k] = (*out.get(k, ()), *found)
        return out

    @property
    def treatment_sources(self) -> tuple[str, ...]:
        """The data the treatment links ask, in words (each link's optional ``sources``): what "not found in
        the treatment data we have" means in a report."""
        out: list[str] = []
        for link in self.links:
            if isinstance(link, TreatmentLookup):
                out.extend(getattr(link, "sources", ()) or ())
        return tuple(dict.fromkeys(out))

    # ------------------------------------------------------------------ the chain itself
    @property
    def work_order(self) -> WorkOrder | None:
        """The order of value a paced link spends its allowance in (``pacing.WorkOrder``), if one is paced."""
        for link in self.links:
            if isinstance(link, PacedLink) and (order := link.work_order) is not None:
                return order
        return None

    async def clear_cache(self) -> bool:
        """Empty every store; False when the chain has none."""
        stores = self._stores()
        for store in stores:
            await store.clear()
        return bool(stores)

    def describe(self) -> str:
        parts = [text for link in self.links if (text := _description(link))]
        return " → ".join(parts) if parts else "no sources (every citation will be cannot-verify)"

    async def close(self) -> None:
        if self._parent is not None:  # a view: the chain owns the links
            return
        for link in reversed(self._links):
            try:
                done = link.close()
                if inspect.isawaitable(done):
                    await done
            except Exception as exc:  # closing must not mask the real outcome
                log.debug("error closing %s: %s", link, exc)

    async def __aenter__(self) -> SourceChain:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def _same_case(a: CaseRecord, b: CaseRecord) -> bool:
    """One case found by two sources (a CAP record and a CourtListener cluster share a citation)."""
    return a.id == b.id or bool({c.key for c in a.citations} & {c.key for c in b.citations})


@asynccontextmanager
async def open_source(
    settings: Settings, *, interactive: bool = False, order: WorkOrder | None = None
) -> AsyncIterator[SourceChain]:
    """The chain the settings ask for; always usable (a missing part only narrows coverage).

    ``interactive`` (the language server, the Word backend): no run deadline, but each call waits only
    briefly for CourtListener's allowance, and a citation index built later is taken up. Otherwise (the
    CLI) the run has ``courtlistener_budget_s``. ``order`` ranks CourtListener work (the language server:
    what the user sees first)."""
    chain = await build_from_settings(settings, interactive=interactive, order=order)
    try:
        yield chain
    finally:
        await chain.close()


async def build_from_settings(
    settings: Settings, *, interactive: bool = False, order: WorkOrder | None = None
) -> SourceChain:
    """``SourceChain(links)`` of every link ``sources/links.py`` opens for these settings."""
    from citecheck.sources.links import open_links

    return SourceChain(await open_links(settings, interactive=interactive, order=order))


__all__ = [
    "LookupWalk",
    "SourceChain",
    "build_from_settings",
    "holds",
    "is_local",
    "label_of",
    "open_source",
]
