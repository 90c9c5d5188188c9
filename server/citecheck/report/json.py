"""Versioned JSON report (schema in docs/report-json.md); also the wire format other edges reuse.

Spans are Python code-point offsets into the text that was checked (``"offset_unit": "codepoint"``).
A consumer indexing in UTF-16 (JavaScript, Word) must convert. Pure apart from ``write_json``, which
writes to the stream it is given: a report of 100,000 citations is written one citation at a time, so
the whole report never exists in memory at once (bench/robustness.py measures it).
"""

from __future__ import annotations

import importlib
import json
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from io import StringIO
from typing import Any, TextIO

from citecheck.extract.models import CiteForm, Database, Statute
from citecheck.findings import Finding, Fix, Kind, Severity, kind_title
from citecheck.holdings.verdicts import holding_json
from citecheck.jurisdiction import Assessment, Forum
from citecheck.report.model import BatchResult, FileResult, authorities, notes, statute_count, statute_of
from citecheck.results import Status
from citecheck.sources.models import CaseRecord
from citecheck.sources.statutes.records import SectionRecord
from citecheck.spans import Span
from citecheck.treatment.models import TreatmentNote


def _optional_orjson() -> Any:
    """orjson, or None: json's encoder is pure Python whenever it indents (before 3.13), 3 s of a
    7,000,000-character check; orjson is a declared dependency, and json writes the same bytes, slower."""
    try:
        return importlib.import_module("orjson")
    except ImportError:  # pragma: no cover
        return None


orjson = _optional_orjson()

SCHEMA_NAME = "citecheck-report"
SCHEMA_VERSION = 1


class _Lazy:
    """A JSON array whose items are built only as they are written (the per-citation and per-finding lists).

    ``plain``: its items are plain JSON data (no ``_Lazy`` inside), so each is handed to json.dumps
    without first being searched for one (that search walked every citation's dict a second time)."""

    __slots__ = ("items", "plain")

    def __init__(self, items: Iterable[Any], *, plain: bool = False) -> None:
        self.items = items
        self.plain = plain


#: ``member.value`` of the enums every citation names, looked up instead of read through the enum's
#: property (a third of a second over the 34,842 citations of a 7,000,000-character brief)
_VALUE: dict[Any, str] = {m: m.value for e in (CiteForm, Database, Status, Kind, Severity) for m in e}


def span_json(file: FileResult, span: Span) -> dict[str, int]:
    starts = file._line_starts  # FileResult.line_col twice, inlined: it runs for every citation and finding
    start, end = span.start, span.end
    i = bisect_right(starts, start) - 1
    j = bisect_right(starts, end, i) - 1
    return {
        "start": start,
        "end": end,
        "line": i + 1,
        "column": start - starts[i] + 1,
        "end_line": j + 1,
        "end_column": end - starts[j] + 1,
    }


def record_json(record: CaseRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "id": record.id,
        "source": record.source,
        "name": record.name,
        "court": record.court_id,
        "court_name": record.court_name,
        "decision_date": record.decision_date,
        "citations": [str(c) for c in record.citations],
        "url": record.url,
    }


def fix_json(fix: Fix) -> dict[str, Any]:
    """A fix: title and edits; for a proposed authority also why, how sure, whether an editor may apply it
    by default, and the case it names (the filled evidence fields)."""
    out: dict[str, Any] = {
        "title": fix.title,
        "edits": [
            {"span": {"start": e.span.start, "end": e.span.end}, "new_text": e.new_text} for e in fix.edits
        ],
        "preferred": fix.preferred,
    }
    if fix.why is not None:
        out["why"] = fix.why
    if fix.confidence is not None:
        out["confidence"] = fix.confidence.value
    if fix.evidence is not None:
        out["case"] = {k: v for k in fix.evidence.__slots__ if (v := getattr(fix.evidence, k)) is not None}
    return out


def finding_json(file: FileResult, f: Finding) -> dict[str, Any]:
    ev = f.evidence
    return {
        "kind": _VALUE[f.kind],
        "title": kind_title(f.kind),
        "severity": _VALUE[f.severity],
        "span": span_json(file, f.span),
        "page": file.page_at(f.span.start),
        "message": f.message,
        "citation_index": f.citation_index,
        "evidence": {k: v for k in ev.__slots__ if (v := getattr(ev, k)) is not None},
        "fixes": [fix_json(fix) for fix in f.fixes],
    }


def section_json(section: SectionRecord | None) -> dict[str, Any] | None:
    """The section a statute citation matched in the statute index (docs/report-json.md, "Section")."""
    if section is None:
        return None
    return {
        "citation": section.citation,
        "heading": section.heading,
        "status": section.status.value,
        "moved_to": section.moved_to,
        "moved_state": section.moved_state or None,
        "act": section.act_name or None,
        "alternatives": [section_json(r) for r in section.alternatives],
        "edition": section.edition,
        "amended": section.amended,
        "url": section.url,
    }


def statute_json(written: Statute | None, resolved: Statute | None) -> dict[str, Any] | None:
    """A statute citation's fields (docs/report-json.md, "Statute"): what it says, with the code and
    title of the full citation a short form resolves to (``None`` there when unresolved)."""
    if written is None:
        return None
    s = resolved or written
    return {
        "form": written.form.value,
        "code": s.code,
        "code_name": s.name,
        "code_text": written.code_text,
        "jurisdiction": s.jurisdiction,
        "regulation": s.regulation,
        "title": s.title,
        "section": written.section,
        "subsections": list(written.subsections),
        "also": list(written.also),
        "last_section": written.last_section,
        "et_seq": written.et_seq,
        "act": s.act,
        "unit": written.unit or None,
        "subpart": written.subpart,
        "appendix": written.appendix,
        "kind": s.kind or None,
        "chapter": s.chapter,
        "act_name": s.act_name,
        "act_section": s.act_section,
        "edition": written.edition,
        "year": written.year,
        "keys": [str(k) for k in s.keys()] if resolved is not None else [],
        "resolved": str(resolved) if resolved is not None else None,
    }


def _weight_json(a: Assessment | None) -> dict[str, Any] | None:
    if a is None:
        return None
    return {"weight": a.weight.value, "reason": a.reason, "court": a.court_id, "court_name": a.court_name}


def _forum_json(forum: Forum | None) -> dict[str, Any] | None:
    if forum is None:
        return None
    return {
        "court": forum.court.id,
        "court_name": forum.court.name,
        "question": forum.question.value,
        "origin": forum.origin,
        "law_state": forum.law_state,
    }


def _citations_json(file: FileResult) -> Iterator[dict[str, Any]]:
    value = _VALUE
    statuses = file.statuses
    for c in file.citations:
        st = statuses[c.index]
        database = c.database
        yield {
            "index": c.index,
            "text": c.text,
            "form": value[c.form],
            "span": span_json(file, c.span),
            "full_span": {"start": c.full_span.start, "end": c.full_span.end},
            "page": file.page_at(c.span.start),
            "case_name": c.case_name.text if c.case_name else None,
            "cite": c.cite_string,
            "database": value[database] if database else None,
            "agency": c.agency,
            "pincite": c.pincite.text if c.pincite else None,
            "court": c.court,
            "year": c.year,
            "antecedent": c.antecedent,
            "group": c.group,
            "status": value[st.status],
            "reason": st.reason or None,
            "resolved_case": record_json(st.record),
            "page_used": st.page_used,
            "passage": st.passage,
            "holding": holding_json(st.holding),
            "weight": _weight_json(st.weight),
            "statute": statute_json(c.statute, statute_of(file, c)),
            "section": section_json(st.statute),
            "treatment": treatment_json(st.treatment),
        }


def treatment_json(note: TreatmentNote | None) -> dict[str, Any] | None:
    """A case citation's subsequent treatment: what the data hold, the draft's own words, and the data asked."""
    if note is None:
        return None
    return {
        "status": note.status,
        "acknowledged": note.acknowledged,
        "sources": list(note.sources),
        "treatments": [
            {
                "kind": t.kind.value,
                "whole": t.whole,
                "by": t.treating.describe() if t.treating else None,
                "by_court": t.treating.court if t.treating else None,
                "basis": t.basis.value,
                "quote": t.quote,
                "quoted_from": t.quoted_from.describe() if t.quoted_from else None,
                "source": t.source,
                "url": t.url,
            }
            for t in note.found
        ],
    }


def _file_json(file: FileResult) -> dict[str, Any]:
    return {
        "path": file.name,
        "kind": file.kind,
        "characters": len(file.text),
        "forum": _forum_json(file.forum),
        "unread_pages": list(file.unread_pages),
        "citations": _Lazy(_citations_json(file), plain=True),
        "findings": _Lazy((finding_json(file, f) for f in file.sorted_findings()), plain=True),
        "authorities": _Lazy(_authorities_json(file), plain=True),
    }


def _authorities_json(file: FileResult) -> Iterator[dict[str, Any]]:
    """The table of authorities, an entry at a time, made only when the report reaches it: a list of all
    of them was built before the citations were written and held to the end, then dumped as one string
    (8,020,142 characters for a 100,000-citation brief) and copied to shift its indent (issue 40)."""
    for a in authorities(file):
        yield {
            "name": a.name,
            "cite": a.cite,
            "status": a.status.value,
            "case": record_json(a.record),
            "citation_indexes": [p.citation_index for p in a.places],
            "listed_at": [p.citation_index for p in a.places if p.listed],
            "kinds": list(a.kinds),
            "weight": _weight_json(a.weight),
            "statute": statute_json(a.statute, a.statute),
        }


def _report(batch: BatchResult) -> dict[str, Any]:
    return {
        "schema": SCHEMA_NAME,
        "version": SCHEMA_VERSION,
        "offset_unit": "codepoint",
        "tool": {"name": "citecheck", "version": batch.tool_version},
        "offline": batch.offline,
        "sources": batch.sources,
        "summary": {
            "files": len(batch.files),
            "citations": sum(len(f.citations) for f in batch.files),
            "statutes": sum(statute_count(f) for f in batch.files),
            "findings": {s.value: batch.count(s) for s in Severity},
            "status": batch.status_counts(),
            "input_errors": len(batch.errors),
        },
        "files": _Lazy(_file_json(f) for f in batch.files),
        "errors": [{"path": e.name, "message": e.message} for e in batch.errors],
        "notes": notes(batch),
    }


def _materialize(value: Any) -> Any:
    if isinstance(value, _Lazy):
        return [_materialize(v) for v in value.items]
    if isinstance(value, dict):
        return {k: _materialize(v) for k, v in value.items()}
    return value


def report_dict(batch: BatchResult) -> dict[str, Any]:
    """The report as plain JSON data (what ``render_json`` prints; the Word add-in's API sends it too)."""
    return _materialize(_report(batch))


def write_json(batch: BatchResult, out: TextIO, *, indent: int | None = 2) -> None:
    """Write the report to ``out``, byte for byte what ``json.dumps(report_dict(batch), indent=indent,
    ensure_ascii=False)`` and a newline would be, but one citation or finding at a time (a whole report of a
    large brief as one dict and one string took a gigabyte)."""
    _write(_report(batch), out, indent, 0)
    out.write("\n")


def render_json(batch: BatchResult, *, indent: int | None = 2) -> str:
    buf = StringIO()
    write_json(batch, buf, indent=indent)
    return buf.getvalue()


def _has_lazy(value: Any) -> bool:
    return isinstance(value, _Lazy) or (isinstance(value, dict) and any(_has_lazy(v) for v in value.values()))


def _dumps(value: Any, indent: int | None) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=False)``, by orjson where its bytes are the same.

    orjson's two-space layout, escapes and number forms equal json's for what a report holds (strings,
    ints, bools, None; no floats: ``1e16`` is the one form that would differ); what it refuses (a lone
    surrogate, an int beyond 64 bits, a key that is not a string) goes to json, which writes it.
    tests/report/test_json.py compares the two on whole reports."""
    if indent == 2 and orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
        except TypeError:  # orjson.JSONEncodeError is one
            pass
    return json.dumps(value, indent=indent, ensure_ascii=False)


def _write(value: Any, out: TextIO, indent: int | None, level: int, *, plain: bool = False) -> None:
    """json.dumps's own layout: with an indent, one member per line and ``,`` between; without, ``, ``."""
    if plain or not _has_lazy(value):
        text = _dumps(value, indent)
        # json.dumps escapes newlines inside strings, so every newline here is layout: shift it to this depth
        out.write(text if indent is None or level == 0 else text.replace("\n", "\n" + " " * (indent * level)))
        return
    inner = "" if indent is None else "\n" + " " * (indent * (level + 1))
    close = "" if indent is None else "\n" + " " * (indent * level)
    sep = ", " if indent is None else ","
    if isinstance(value, dict):
        if not value:
            out.write("{}")
            return
        out.write("{")
        for i, (key, item) in enumerate(value.items()):
            out.write((sep if i else "") + inner + json.dumps(key, ensure_ascii=False) + ": ")
            _write(item, out, indent, level + 1)
        out.write(close + "}")
        return
    first = True
    for item in value.items:
        out.write(("[" if first else sep) + inner)
        _write(item, out, indent, level + 1, plain=value.plain)
        first = False
    out.write("[]" if first else close + "]")
