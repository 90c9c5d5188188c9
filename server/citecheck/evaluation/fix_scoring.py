"""Score the fixes offered on excerpts whose right correction is known (``fix_items.py``); pure.

A fix is judged by what it makes of the draft, not by its title: its edits are applied, the text is
extracted again, and the citation at the edit must name the case the draft meant (``compare_names``
MATCH) under one of that case's citations. Only the fixes of findings that say a citation is wrong
count (``CORRECTION_KINDS``); a pin-cite or quote fix is another matter.

Per kind: how many excerpts got a fix, how many were offered the right one, how many were offered
only wrong ones ("a wrong fix offered alone", the figure that must stay near zero), and whether the
right fix, applied, leaves the citation without a finding (checked by the runner, which re-checks).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from citecheck.checks.name_match import NameVerdict, compare_names
from citecheck.extract.models import CiteForm, Extraction
from citecheck.findings import Finding, Fix, Kind
from citecheck.spans import Span

#: Findings that say a citation is wrong: their fixes propose the authority the draft meant.
CORRECTION_KINDS = frozenset(
    {
        Kind.FABRICATED_CASE,
        Kind.WRONG_FIRST_PAGE,
        Kind.IMPOSSIBLE_CITATION,
        Kind.NAME_MISMATCH,
        Kind.NAME_MISSPELLED,
        Kind.YEAR_MISMATCH,
        Kind.COURT_MISMATCH,
        Kind.CANNOT_VERIFY,
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class FixTruth:
    """The case the draft meant (``name`` None and no citations: no fix may name a case of ours)."""

    kind: str
    name: str | None
    citations: tuple[str, ...]
    invention: str | None = None
    quoted: bool | None = None  # the excerpt quotes its case (None: not said)

    @classmethod
    def from_json(cls, obj: object, invention: object = None, quoted: object = None) -> FixTruth | None:
        if not isinstance(obj, Mapping) or not isinstance(obj.get("kind"), str):
            return None
        name = obj.get("name")
        cites = obj.get("citations") or []
        return cls(
            kind=str(obj["kind"]),
            name=str(name) if name else None,
            citations=tuple(str(c) for c in cites) if isinstance(cites, list) else (),
            invention=str(invention) if invention else None,
            quoted=quoted if isinstance(quoted, bool) else None,
        )


def apply_fix(text: str, fix: Fix) -> str:
    """``text`` with the fix's edits made (they never overlap; applied from the end)."""
    out = text
    for e in sorted(fix.edits, key=lambda e: e.span.start, reverse=True):
        out = out[: e.span.start] + e.new_text + out[e.span.end :]
    return out


def edited_region(text: str, fix: Fix) -> Span:
    """Where the fix's edits lie in the fixed text (from the first edit's start to the last's end)."""
    first = min(e.span.start for e in fix.edits)
    last = max(e.span.end for e in fix.edits)
    grown = sum(len(e.new_text) - len(e.span) for e in fix.edits)
    return Span(first, max(first, last + grown))


def correction_fixes(findings: Iterable[Finding]) -> list[tuple[Finding, Fix]]:
    return [(f, x) for f in findings if f.kind in CORRECTION_KINDS for x in f.fixes if x.edits]


def fixed_citation_index(extraction: Extraction, region: Span) -> int | None:
    """The full citation of the fixed text that the edits touched (its name, core or parenthetical)."""
    for c in extraction.citations:
        if c.form is CiteForm.FULL and c.full_span.start <= region.end and region.start <= c.full_span.end:
            return c.index
    return None


def is_right(extraction: Extraction, region: Span, truth: FixTruth) -> bool:
    """The citation at ``region`` of the fixed text names the meant case under one of its citations."""
    if truth.name is None:
        return False
    i = fixed_citation_index(extraction, region)
    if i is None:
        return False
    c = extraction.citations[i]
    if c.cite_string is None or c.cite_string not in truth.citations or c.case_name is None:
        return False
    return compare_names(c.case_name.text, [truth.name]).verdict is NameVerdict.MATCH


@dataclass(slots=True)
class FixCounts:
    items: int = 0
    offered: int = 0  # got at least one correction fix
    right: int = 0  # one of them was right
    wrong_alone: int = 0  # fixes offered, none right
    right_first: int = 0  # the first fix offered was the right one
    clean_after: int = 0  # the right fix, applied, left the citation without a warning or error
    checked_after: int = 0
    preferred: int = 0  # a fix was marked to be applied by default
    preferred_wrong: int = 0  # ... and it was not the right one (the figure that must be zero)

    def share(self, n: int) -> float:
        return n / self.items if self.items else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "items": self.items,
            "offered": self.offered,
            "right_offered": self.right,
            "right_offered_rate": round(self.share(self.right), 4),
            "wrong_alone": self.wrong_alone,
            "wrong_alone_rate_of_fixed": round(self.wrong_alone / self.offered, 4) if self.offered else 0.0,
            "right_first": self.right_first,
            "preferred": self.preferred,
            "preferred_wrong": self.preferred_wrong,
            "clean_after": self.clean_after,
            "checked_after": self.checked_after,
        }


@dataclass(slots=True)
class FixScores:
    by_kind: dict[str, FixCounts] = field(default_factory=dict)
    by_invention: dict[str, FixCounts] = field(default_factory=dict)
    by_quoted: dict[str, FixCounts] = field(default_factory=dict)  # "quoted" / "unquoted" (fix kinds only)
    wrong: list[tuple[str, str, str]] = field(default_factory=list)  # (example id, kind, fix title)
    missed: list[tuple[str, str]] = field(default_factory=list)  # (example id, kind): no right fix

    def add(
        self,
        example_id: str,
        truth: FixTruth,
        fixes: Sequence[tuple[Finding, Fix]],
        right: Sequence[bool],
        clean_after: bool | None,
    ) -> None:
        rows = [self.by_kind.setdefault(truth.kind, FixCounts())]
        if truth.invention:
            rows.append(self.by_invention.setdefault(truth.invention, FixCounts()))
        if truth.quoted is not None:
            rows.append(self.by_quoted.setdefault("quoted" if truth.quoted else "unquoted", FixCounts()))
        any_right = any(right)
        chosen = [ok for (_, fix), ok in zip(fixes, right, strict=True) if fix.preferred]
        for c in rows:
            c.items += 1
            c.offered += bool(fixes)
            c.right += any_right
            c.wrong_alone += bool(fixes) and not any_right
            c.right_first += bool(right) and right[0]
            c.preferred += bool(chosen)
            c.preferred_wrong += any(not ok for ok in chosen)
            if clean_after is not None:
                c.checked_after += 1
                c.clean_after += clean_after
        if fixes and not any_right:
            self.wrong.append((example_id, truth.kind, fixes[0][1].title))
        if truth.name is not None and not any_right:
            self.missed.append((example_id, truth.kind))

    @property
    def total(self) -> FixCounts:
        t = FixCounts()
        for c in self.by_kind.values():
            for name in FixCounts.__slots__:
                setattr(t, name, getattr(t, name) + getattr(c, name))
        return t

    def to_json(self) -> dict[str, object]:
        return {
            "by_kind": {k: c.to_json() for k, c in sorted(self.by_kind.items())},
            "by_invention": {k: c.to_json() for k, c in sorted(self.by_invention.items())},
            "by_quoted": {k: c.to_json() for k, c in sorted(self.by_quoted.items())},
            "all": self.total.to_json(),
        }

    def render(self) -> str:
        rows = [
            (
                "fix kind",
                "items",
                "fixed",
                "right",
                "right %",
                "wrong alone",
                "clean after",
                "preferred (wrong)",
            )
        ]
        for name, c in [*sorted(self.by_kind.items()), ("all", self.total)]:
            rows.append(
                (
                    name,
                    str(c.items),
                    str(c.offered),
                    str(c.right),
                    f"{100 * c.share(c.right):.1f}",
                    f"{c.wrong_alone} ({100 * c.wrong_alone / c.offered if c.offered else 0:.1f}% of fixed)",
                    f"{c.clean_after}/{c.checked_after}",
                    f"{c.preferred} ({c.preferred_wrong})",
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = [
            "  ".join(
                x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(r, widths, strict=True))
            )
            for r in rows
        ]
        lines.insert(1, "-" * len(lines[0]))
        if self.by_invention:
            inv = ", ".join(f"{k} {c.right}/{c.items}" for k, c in sorted(self.by_invention.items()))
            lines.append(f"invented citations, right fix by invention: {inv}")
        for k, c in sorted(self.by_quoted.items()):
            lines.append(
                f"{k}: right fix {c.right}/{c.items}, wrong alone {c.wrong_alone}, "
                f"preferred {c.preferred} (wrong {c.preferred_wrong})"
            )
        return "\n".join(lines)


__all__ = [
    "CORRECTION_KINDS",
    "FixCounts",
    "FixScores",
    "FixTruth",
    "apply_fix",
    "correction_fixes",
    "edited_region",
    "is_right",
]
