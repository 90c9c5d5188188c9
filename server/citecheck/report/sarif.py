"""SARIF 2.1.0 so CI and code-scanning tools show citation findings next to the filed document.

One rule per finding kind (the closed vocabulary in ``citecheck.findings``); regions carry line,
column (``columnKind: unicodeCodePoints``, matching our offsets) and character offsets; fixes become
SARIF replacements; unreadable inputs become tool execution notifications. Pure: returns a string.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from citecheck.findings import DEFAULT_SEVERITY, KIND_DOCS, Finding, Kind, Severity
from citecheck.report.help import declared_docs_url, docs_url
from citecheck.report.model import BatchResult, FileResult, cited_text

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_RULES = list(Kind)


def _uri(name: str) -> str:
    if name == "<stdin>":
        return "stdin"
    return quote(PurePath(name).as_posix(), safe="/:._-~")


def _region(file: FileResult, start: int, end: int) -> dict[str, int]:
    line, col = file.line_col(start)
    end_line, end_col = file.line_col(end)
    return {
        "startLine": line,
        "startColumn": col,
        "endLine": end_line,
        "endColumn": end_col,
        "charOffset": start,
        "charLength": end - start,
    }


def _fingerprint(file: FileResult, f: Finding, seen: dict[str, int]) -> str:
    """Stable across runs and unrelated edits: kind + what was cited + its occurrence number."""
    base = f"{file.name}|{f.kind.value}|{' '.join(cited_text(file, f).split())}"
    seen[base] = seen.get(base, 0) + 1
    return hashlib.sha256(f"{base}|{seen[base]}".encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _result(file: FileResult, artifact_index: int, f: Finding) -> dict[str, Any]:
    location = {
        "physicalLocation": {
            "artifactLocation": {"uri": _uri(file.name), "index": artifact_index},
            "region": {**_region(file, f.span.start, f.span.end), "snippet": {"text": f.span.of(file.text)}},
        }
    }
    ev = {k: getattr(f.evidence, k) for k in f.evidence.__slots__ if getattr(f.evidence, k) is not None}
    result: dict[str, Any] = {
        "ruleId": f.kind.value,
        "ruleIndex": _RULES.index(f.kind),
        "level": _LEVEL[f.severity],
        "message": {"text": f.message},
        "locations": [location],
        "properties": {"citation": cited_text(file, f), "evidence": ev},
    }
    if f.fixes:
        result["fixes"] = [
            {
                "description": {"text": fix.describe()},
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": _uri(file.name), "index": artifact_index},
                        "replacements": [
                            {
                                "deletedRegion": {"charOffset": e.span.start, "charLength": len(e.span)},
                                "insertedContent": {"text": e.new_text},
                            }
                            for e in fix.edits
                        ],
                    }
                ],
            }
            for fix in f.fixes
        ]
    return result


def render_sarif(batch: BatchResult) -> str:
    rules = []
    for kind in _RULES:
        rule: dict[str, Any] = {
            "id": kind.value,
            "name": "".join(part.capitalize() for part in kind.value.split("-")),
            "shortDescription": {"text": KIND_DOCS[kind]},
            "help": {"text": KIND_DOCS[kind]},
            "defaultConfiguration": {"level": _LEVEL[DEFAULT_SEVERITY[kind]]},
        }
        if (url := docs_url(kind)) is not None:  # only a URL the package declares (issue 36)
            rule["helpUri"] = url
        rules.append(rule)
    artifacts = [{"location": {"uri": _uri(f.name)}, "length": len(f.text)} for f in batch.files]
    results = []
    for i, file in enumerate(batch.files):
        seen: dict[str, int] = {}
        prints = {
            id(f): _fingerprint(file, f, seen)  # numbered in document order, not severity order
            for f in sorted(file.findings, key=lambda x: (x.span.start, x.kind.value))
        }
        for f in file.sorted_findings():
            result = _result(file, i, f)
            result["partialFingerprints"] = {"citecheckFinding/v1": prints[id(f)]}
            results.append(result)
    notifications = [
        {
            "level": "error",
            "message": {"text": err.message},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(err.name)}}}],
        }
        for err in batch.errors
    ]
    run = {
        "tool": {
            "driver": {
                "name": "citecheck",
                "version": batch.tool_version,
                **({"informationUri": url} if (url := declared_docs_url()) else {}),
                "rules": rules,
            }
        },
        "columnKind": "unicodeCodePoints",
        "artifacts": artifacts,
        "invocations": [
            {"executionSuccessful": not batch.errors, "toolExecutionNotifications": notifications}
        ],
        "results": results,
        "properties": {"offline": batch.offline, "sources": batch.sources},
    }
    return (
        json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2, ensure_ascii=False)
        + "\n"
    )
