"""Score findings against gold hallucination spans (LePhantomCite format); pure.

A dataset line is ``{"text": ..., "hallucinations": {span_text: type}, ...}``; optional spans
(``"optional"``, ``"optional_spans"`` or ``"optional_hallucinations"``: a list of span texts or a
{span: type} map) may be flagged or not, so a prediction matching only an optional span counts neither
way; other keys are ignored. A predicted span matches a gold span when either string contains the
other. Only error and warning findings count as predictions ("could not verify" is not a prediction).
Precision, recall and F1 are computed over all spans and per type; a finding kind counts for the type its
category names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from citecheck.errors import InputError
from citecheck.evaluation.fix_scoring import FixScores, FixTruth
from citecheck.findings import Finding, Kind, Severity

#: Our finding kinds → the evaluation category they predict (the kinds table's ``evaluation`` column).
KIND_CATEGORY: dict[Kind, str] = {k: k.row.evaluation for k in Kind if k.row.evaluation is not None}

#: Type names as other datasets write them (lower-cased, non-letters removed) → our category.
_TYPE_ALIASES: dict[str, str] = {
    "nonexistentcase": "nonexistent-case",
    "nonexistent": "nonexistent-case",
    "fabricated": "nonexistent-case",
    "fabricatedcase": "nonexistent-case",
    "fabricatedcitation": "nonexistent-case",
    "hallucinatedcase": "nonexistent-case",
    "fakecase": "nonexistent-case",
    "impossiblecitation": "nonexistent-case",
    "namemismatch": "name-mismatch",
    "casenamemismatch": "name-mismatch",
    "wrongname": "name-mismatch",
    "wrongcasename": "name-mismatch",
    "misspelledname": "name-mismatch",
    "citationmismatch": "name-mismatch",
    "misquote": "misquote",
    "misquotation": "misquote",
    "fabricatedquote": "misquote",
    "wrongquote": "misquote",
    "wrongpincite": "wrong-pincite",
    "incorrectpincite": "wrong-pincite",
    "pincite": "wrong-pincite",
    "wrongpage": "wrong-pincite",
    "pinciteoutofrange": "wrong-pincite",
    "pincitewrongpage": "wrong-pincite",
    "unsupported": "misrepresentation",
    "unsupportedproposition": "misrepresentation",
    "unsupportedholding": "misrepresentation",
    "mischaracterization": "misrepresentation",
    "mischaracterizedholding": "misrepresentation",
    "misrepresentation": "misrepresentation",
    "contentmisrepresentation": "misrepresentation",
    "misrepresentedholding": "misrepresentation",
    "misrepresentedcontent": "misrepresentation",
    "propositionnotsupported": "misrepresentation",
    "yearmismatch": "wrong-parenthetical",
    "courtmismatch": "wrong-parenthetical",
}

#: Categories the checks decide from records alone (the ≥ 98 % targets apply to these).
DETERMINISTIC = ("nonexistent-case", "name-mismatch", "misquote", "wrong-pincite")


def category_of(type_name: str) -> str:
    """Normalise a dataset's type name.

    >>> category_of("Non-existent case"), category_of("misquotation"), category_of("weird")
    ('nonexistent-case', 'misquote', 'weird')
    """
    key = re.sub(r"[^a-z]", "", type_name.lower())
    return _TYPE_ALIASES.get(key, type_name.strip().lower())


@dataclass(frozen=True, slots=True, kw_only=True)
class Example:
    text: str
    gold: tuple[tuple[str, str], ...]  # (span text, category)
    id: str | None = None
    optional: tuple[str, ...] = ()  # spans that may be flagged without counting
    control: str | None = None  # a clean item that controls for this category (false-positive rate)
    fix: FixTruth | None = None  # the correction the draft needs (``fix_items``): fixes are scored too


def iter_jsonl(lines: Iterable[str], *, origin: str) -> Iterator[tuple[int, object]]:
    """``(line number, value)`` for each non-blank JSONL line; a bad line is an InputError naming it."""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{origin}:{n}: not JSON ({exc.msg})") from exc


def parse_dataset(lines: Iterable[str], *, origin: str = "dataset") -> list[Example]:
    """Parse JSONL; a bad line is an InputError naming the line, never a traceback."""
    out = []
    for n, obj in iter_jsonl(lines, origin=origin):
        if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
            raise InputError(f'{origin}:{n}: each line needs a "text" string')
        halls = obj.get("hallucinations") or {}
        if isinstance(halls, list):  # [{"span": ..., "type": ...}] is accepted too
            halls = {h.get("span", ""): h.get("type", "") for h in halls if isinstance(h, dict)}
        if not isinstance(halls, dict):
            raise InputError(f'{origin}:{n}: "hallucinations" must map span text to a type')
        gold = tuple((str(s), category_of(str(t))) for s, t in halls.items() if str(s).strip())
        optional: list[str] = []
        for key in ("optional", "optional_spans", "optional_hallucinations"):
            value = obj.get(key)
            if isinstance(value, dict):
                optional.extend(str(k) for k in value)
            elif isinstance(value, list):
                optional.extend(str(v.get("span", "")) if isinstance(v, dict) else str(v) for v in value)
        control = obj.get("control")
        out.append(
            Example(
                text=obj["text"],
                gold=gold,
                id=str(obj.get("id", n)),
                optional=tuple(o for o in optional if o.strip()),
                control=category_of(str(control)) if control else None,
                fix=FixTruth.from_json(obj.get("fix"), obj.get("invention"), obj.get("quoted")),
            )
        )
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Prediction:
    span_text: str
    category: str
    kind: str
    message: str


def predictions(text: str, findings: Sequence[Finding]) -> list[Prediction]:
    """Error and warning findings as predicted spans (info findings are not predictions)."""
    out = []
    for f in findings:
        if f.severity not in (Severity.ERROR, Severity.WARNING):
            continue
        span_text = f.span.of(text)
        if not span_text.strip():
            continue
        out.append(
            Prediction(
                span_text=span_text,
                category=KIND_CATEGORY.get(f.kind, str(f.kind)),
                kind=str(f.kind),
                message=f.message,
            )
        )
    return out


def spans_match(a: str, b: str) -> bool:
    a, b = " ".join(a.split()), " ".join(b.split())
    return bool(a) and bool(b) and (a in b or b in a)


@dataclass(slots=True)
class Counts:
    gold: int = 0
    gold_hit: int = 0
    pred: int = 0
    pred_hit: int = 0

    @property
    def precision(self) -> float:
        return self.pred_hit / self.pred if self.pred else 1.0

    @property
    def recall(self) -> float:
        return self.gold_hit / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(slots=True)
class Scores:
    overall: Counts = field(default_factory=Counts)
    by_type: dict[str, Counts] = field(default_factory=dict)
    misses: list[tuple[str, str, str]] = field(default_factory=list)  # (example id, gold span, type)
    false_alarms: list[tuple[str, str, str, str]] = field(default_factory=list)  # (id, span, kind, message)
    examples: int = 0
    controls: dict[str, list[int]] = field(default_factory=dict)  # category → [control items, flagged ones]
    fixes: FixScores = field(default_factory=FixScores)  # only for examples that carry a ``fix`` truth

    def false_positive_rate(self, category: str) -> float | None:
        """Share of the category's clean control items on which that category was predicted (None: no controls)."""
        n, flagged = self.controls.get(category, (0, 0))
        return flagged / n if n else None

    def for_type(self, category: str) -> Counts:
        return self.by_type.setdefault(category, Counts())

    def to_json(self) -> dict[str, object]:
        def row(c: Counts) -> dict[str, float | int]:
            return {
                "precision": round(c.precision, 4),
                "recall": round(c.recall, 4),
                "f1": round(c.f1, 4),
                "gold": c.gold,
                "predicted": c.pred,
            }

        return {
            "examples": self.examples,
            "overall": row(self.overall),
            "by_type": {t: row(c) for t, c in sorted(self.by_type.items())},
            "misses": [{"id": i, "span": s, "type": t} for i, s, t in self.misses],
            "false_alarms": [
                {"id": i, "span": s, "kind": k, "message": m} for i, s, k, m in self.false_alarms
            ],
            "controls": {
                c: {"items": n, "flagged": f, "false_positive_rate": round(f / n, 4) if n else None}
                for c, (n, f) in sorted(self.controls.items())
            },
            **({"fixes": self.fixes.to_json()} if self.fixes.by_kind else {}),
        }


def score_example(scores: Scores, example: Example, preds: Sequence[Prediction]) -> None:
    """Add one example's gold spans and predictions to ``scores``."""
    scores.examples += 1
    if example.control:
        counts = scores.controls.setdefault(example.control, [0, 0])
        counts[0] += 1
        counts[1] += any(p.category == example.control for p in preds)
    for span, cat in example.gold:
        any_hit = any(spans_match(p.span_text, span) for p in preds)
        typed_hit = any(spans_match(p.span_text, span) and p.category == cat for p in preds)
        scores.overall.gold += 1
        scores.overall.gold_hit += any_hit
        t = scores.for_type(cat)
        t.gold += 1
        t.gold_hit += typed_hit
        if not typed_hit:
            scores.misses.append((example.id or "?", span, cat))
    for p in preds:
        any_hit = any(spans_match(p.span_text, s) for s, _ in example.gold)
        if not any_hit and any(spans_match(p.span_text, o) for o in example.optional):
            continue  # an optional span: neither right nor wrong to flag
        typed_hit = any(spans_match(p.span_text, s) and p.category == c for s, c in example.gold)
        scores.overall.pred += 1
        scores.overall.pred_hit += any_hit
        t = scores.for_type(p.category)
        t.pred += 1
        t.pred_hit += typed_hit
        if not any_hit:
            scores.false_alarms.append((example.id or "?", p.span_text, p.kind, p.message))


def render_table(scores: Scores, types: Mapping[str, Counts] | None = None) -> str:
    """A plain-text table: type, gold, predicted, precision, recall, F1."""
    rows = [("type", "gold", "pred", "precision", "recall", "F1")]
    for name, c in sorted((types or scores.by_type).items()):
        rows.append((name, str(c.gold), str(c.pred), f"{c.precision:.3f}", f"{c.recall:.3f}", f"{c.f1:.3f}"))
    o = scores.overall
    rows.append(("overall", str(o.gold), str(o.pred), f"{o.precision:.3f}", f"{o.recall:.3f}", f"{o.f1:.3f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]
    lines.insert(1, "-" * len(lines[0]))
    lines.insert(len(lines) - 1, "-" * len(lines[0]))
    for cat, (n, flagged) in sorted(scores.controls.items()):
        lines.append(
            f"{cat}: false-positive rate {flagged / n:.3f} ({flagged} of {n} supported control items flagged)"
        )
    if scores.fixes.by_kind:
        lines.extend(("", scores.fixes.render()))
    return "\n".join(lines) + f"\n({scores.examples} examples)"
