"""What the paragraphs planned again changed, and which later paragraphs' lookups could see it
(``Zone``): the rest are taken over unplanned."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, NamedTuple

from citecheck.extract.incremental.identity import IdentityMap
from citecheck.extract.incremental.lookups import SECTION_MARK, LookupState, Record, norm_name, suffixes

if TYPE_CHECKING:
    from citecheck.extract.incremental.assembly import Run

from citecheck.extract.models import CiteForm, StatuteForm, normalise_section
from citecheck.extract.paragraph import ParagraphResult

Cite = tuple[str | None, str | None]


class Asks(NamedTuple):
    """What one paragraph result's lookups ask for (they depend on its text alone)."""

    names: tuple[str, ...]  # padded names its short forms and ``supra`` search for
    shorts: tuple[str, ...]  # short names its ``Name at N`` candidates try
    cites: tuple[Cite, ...]  # volumes and reporters (sections) its short forms search


class Queries:
    """Each paragraph result's lookups — the padded names its short forms and ``supra`` search for
    (``_latest``), the short names its ``Name at N`` candidates try (``resolve_reference``), the
    volumes and reporters of its short forms (``resolve_short``) — which depend on its text alone,
    kept from run to run; and, for the results asked about, which of them look up a word, short name
    or volume, so the paragraphs a changed record could answer differently are found without looking
    at every paragraph."""

    __slots__ = ("by_cite", "by_short", "by_word", "of")

    def __init__(self) -> None:
        #: by the result itself (by identity)
        self.of: IdentityMap[ParagraphResult, Asks] = IdentityMap()
        self.by_word: dict[str, set[int]] = {}
        self.by_short: dict[str, set[int]] = {}
        self.by_cite: dict[Cite, set[int]] = {}

    def get(self, res: ParagraphResult, text: str, off: int) -> Asks:
        hit = self.of.get(res)
        if hit is not None:
            return hit
        asks = _queries_of(res, text, off)
        self.of[res] = asks
        key = IdentityMap.key(res)
        for name in asks.names:
            w = name.split()
            if w:
                self.by_word.setdefault(w[-1], set()).add(key)
        for s in asks.shorts:
            self.by_short.setdefault(s, set()).add(key)
        for c in asks.cites:
            self.by_cite.setdefault(c, set()).add(key)
        return asks


def _queries_of(res: ParagraphResult, text: str, off: int) -> Asks:
    names: list[str] = []
    cites: list[Cite] = []
    for c in res.citations:
        if c.form in (CiteForm.SHORT, CiteForm.SUPRA) and c.antecedent_text:
            names.extend(suffixes(c.antecedent_text))
        if c.form is CiteForm.SHORT:
            cites.append((c.volume, c.reporter))
        elif c.form is CiteForm.STATUTE and c.statute is not None and c.statute.form is StatuteForm.SHORT:
            cites.append((normalise_section(c.statute.section), SECTION_MARK))
    shorts = [norm_name(text[off + w[0] : off + r.name_end]) for r in res.refs for w in r.words]
    return Asks(tuple(names), tuple(shorts), tuple(dict.fromkeys(cites)))


class Placed(NamedTuple):
    """A record and its paragraph (the previous run's number for it)."""

    paragraph: int
    record: Record


class Zone:
    """What the paragraphs planned again changed in the records later paragraphs look up.

    The records of the previous run's paragraphs that were not taken over (``old``) against those the
    present run planned (``new``), each with its paragraph; equal ones at either end are left out.
    When what is left pairs up with differences in names only (typing inside a case name), a later
    paragraph is affected when one of its name lookups answers differently for a pair; otherwise when
    any of its lookups could match any record left (a record added, removed, renumbered or moved). A
    paragraph whose lookups are unaffected resolves as before, to the same records at the same places."""

    __slots__ = (
        "_changed",
        "_hits",
        "_hits_at",
        "_hits_key",
        "_key",
        "_loose",
        "_pairs",
        "flooded",
        "new",
        "old",
        "old_next",
        "para_delta",
        "prior",
        "queries",
        "st",
    )

    def __init__(self, prior: Run, st: LookupState, queries: Queries, q: int, para_delta: int) -> None:
        self.prior, self.st, self.queries = prior, st, queries
        self.para_delta = para_delta
        self.old: list[Placed] = []
        self.new: list[Placed] = []  # placed by the previous run's paragraph numbers, as ``old``
        self.old_next = q  # the previous run's paragraphs before this are accounted for
        self._key: tuple[int, int] | None = None
        self._pairs: list[tuple[Record, Record]] = []
        self._loose: list[Record] = []
        #: bumped when the changes (``_pairs``, ``_loose``) differ from the last ones compared: a paragraph
        #: planned again alike (the usual case of one the changes affected) leaves them as they were,
        #: and so the later paragraphs they affect (a document that cites a case three times as often
        #: compared every later reference once per such paragraph: quadratic in the references)
        self._changed = 0
        self._hits_key: int | None = None
        self._hits: set[int] = set()
        self._hits_at: list[int] = []  # positions (present run) of the results in ``_hits``, ascending
        #: so much changed (a paragraph inserted or removed before many short forms that reach back
        #: past it, a long paste) that every later paragraph is planned again, as before numbering
        #: was relative: the comparison would cost more than the planning it saves
        self.flooded = False

    def planned(self, para: int, start: int) -> None:
        """Paragraph ``para`` was planned again; its records are ``st.fulls[start:]``."""
        if self.flooded:
            return
        fulls = self.st.fulls
        t = para - self.para_delta
        self.new.extend(Placed(t, fulls[i]) for i in range(start, len(fulls)))
        if len(self.new) > self.st.limits.zone_records:
            self.flooded = True

    def taken(self, old: int) -> None:
        """The previous run's paragraph ``old`` was taken over: those before it that were not are replaced."""
        self._replaced(old)
        self.old_next = old + 1

    def taken_range(self, start: int, end: int) -> None:
        """The previous run's paragraphs ``start:end`` were taken over."""
        self._replaced(start)
        self.old_next = end

    def _replaced(self, upto: int) -> None:
        prior = self.prior
        if not self.flooded:
            for t in range(self.old_next, upto):
                self.old.extend(
                    Placed(t, prior.fulls[i]) for i in range(prior.records_before[t], prior.records_at(t + 1))
                )
            if len(self.old) > self.st.limits.zone_records:
                self.flooded = True
        self.old_next = max(self.old_next, upto)

    def _changes(self, old: int) -> tuple[list[tuple[Record, Record]], list[Record]]:
        self._replaced(old)
        key = (len(self.old), len(self.new))  # both only grow: the same lengths, the same lists
        if key == self._key:
            return self._pairs, self._loose
        was = (self._pairs, self._loose)
        a, b = self.old, self.new
        i, j, k = 0, len(a), len(b)
        while i < j and i < k and _same_placed(a[i], b[i]):
            i += 1
        while j > i and k > i and _same_placed(a[j - 1], b[k - 1]):
            j, k = j - 1, k - 1
        mid_a, mid_b = a[i:j], b[i:k]
        if len(mid_a) == len(mid_b) and all(
            x.paragraph == y.paragraph and _names_only(x.record, y.record)
            for x, y in zip(mid_a, mid_b, strict=True)
        ):
            self._pairs, self._loose = [(x.record, y.record) for x, y in zip(mid_a, mid_b, strict=True)], []
        else:
            loose = mid_a + mid_b
            # a reference names a record by its key and how many before it share that key: a record
            # added or removed before another of the same key changes the other's name too
            clash = {(t, f.key) for t, f in loose}
            self._pairs = []
            self._loose = [f for t, f in a + b if (t, f.key) in clash]
            if len(self._loose) > self.st.limits.zone_loose:
                self.flooded = True
        self._key = key
        if not (_same_pairs(was[0], self._pairs) and _same_list(was[1], self._loose)):
            self._changed += 1
        return self._pairs, self._loose

    def unaffected(self, res: ParagraphResult, text: str, off: int, old: int) -> bool:
        """Whether paragraph ``res`` (the previous run's ``old``) resolves as before."""
        if self.flooded:
            return False
        pairs, loose = self._changes(old)
        if self.flooded:
            return False
        if not pairs and not loose:
            return True
        return not _hits(self.queries.get(res, text, off), pairs, loose)

    def affected_from(
        self,
        results: list[ParagraphResult],
        paragraphs: list[tuple[int, int]],
        text: str,
        para: int,
        old: int,
    ) -> int:
        """The first paragraph from ``para`` on (the previous run's ``old`` on) whose lookups the changes
        could answer differently; ``len(results)`` when none."""
        if self.flooded:
            return para
        pairs, loose = self._changes(old)
        n = len(results)
        if self.flooded:
            return para
        if not pairs and not loose:
            return n
        if self._hits_key != self._changed:
            hits = self._affected(results, paragraphs, text, para, pairs, loose)
            self._hits_key, self._hits = self._changed, hits
            self._hits_at = [i for i in range(para, n) if IdentityMap.key(results[i]) in hits] if hits else []
        at = self._hits_at
        k = bisect_left(at, para)
        return at[k] if k < len(at) else n

    def _affected(
        self,
        results: list[ParagraphResult],
        paragraphs: list[tuple[int, int]],
        text: str,
        para: int,
        pairs: list[tuple[Record, Record]],
        loose: list[Record],
    ) -> set[int]:
        """The results (by id) whose lookups the changes could answer differently."""
        qs = self.queries
        n = len(results)
        for i in range(para, n):  # every later paragraph's lookups are in the index (once per result)
            r = results[i]
            if r not in qs.of:
                qs.get(r, text, paragraphs[i][0])
        keys: set[int] = set()
        for f in [*loose, *(g for pair in pairs for g in pair)]:
            for w in set(f.padded.split()):
                keys |= qs.by_word.get(w, set())
            for s in f.short_names:
                keys |= qs.by_short.get(s, set())
            if loose:
                keys |= qs.by_cite.get((f.volume, f.reporter), set())
        for a, b in pairs:  # a short form of its volume: whether two cites of a page are one case (by names)
            if a.short_names != b.short_names:
                keys |= qs.by_cite.get((a.volume, a.reporter), set())
        return {k for k in keys if _hits(qs.of.at(k), pairs, loose)}


def _same_list(a: list[Record], b: list[Record]) -> bool:
    """Element by element the same records (compared by identity: cheap, and enough)."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def _same_pairs(a: list[tuple[Record, Record]], b: list[tuple[Record, Record]]) -> bool:
    return len(a) == len(b) and all(x[0] is y[0] and x[1] is y[1] for x, y in zip(a, b, strict=True))


def _same_placed(a: Placed, b: Placed) -> bool:
    return a.paragraph == b.paragraph and (a.record is b.record or a.record.content == b.record.content)


def _hits(
    queries: Asks,
    pairs: list[tuple[Record, Record]],
    loose: list[Record],
) -> bool:
    names, shorts, cites = queries
    for old, new in pairs:
        if any((n in old.padded) != (n in new.padded) for n in names):
            return True
        if any((n in old.short_names) != (n in new.short_names) for n in shorts):
            return True
        if old.short_names != new.short_names and (old.volume, old.reporter) in cites:
            return True  # a short form of its volume: whether two cites of a page are one case (by names)
    for f in loose:
        if (f.volume, f.reporter) in cites:
            return True
        if any(n in f.padded for n in names) or any(n in f.short_names for n in shorts):
            return True
    return False


def _names_only(a: Record, b: Record) -> bool:
    """Whether two records differ in their names alone (a reference names both alike)."""
    return a.key == b.key and a.page == b.page
