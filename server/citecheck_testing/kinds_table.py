"""What is made from the kinds table (``citecheck.findings.Kind``): docs/findings.md's table and the VS Code
extension's enums of finding kinds (``citecheck.enabledKinds``, ``citecheck.severityOverrides``).

``tests/test_findings_docs.py`` keeps both equal to the table; after adding or changing a kind, rewrite them with
``CITECHECK_REGEN_GOLDEN=1 python -m pytest -q tests/test_findings_docs.py``.
"""

from __future__ import annotations

import json
from typing import Any

from citecheck.findings import Kind, Severity

BEGIN = "<!-- kinds table: generated from citecheck/findings.py (Kind); do not edit by hand -->"
END = "<!-- end of kinds table -->"

#: The VS Code settings whose enums are the kinds: (setting, path to the enum inside its schema).
VSCODE_ENUMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("citecheck.enabledKinds", ("items", "enum")),
    ("citecheck.enabledChecks", ("items", "enum")),  # its former name, still read
    ("citecheck.severityOverrides", ("propertyNames", "enum")),
)


def kinds_table() -> str:
    """The markdown table: one row per kind, in the order of the table."""
    rows = [
        "| kind | heading | default severity | at most | evaluation category | meaning |",
        "|---|---|---|---|---|---|",
    ]
    for k in Kind:
        r = k.row
        at_most = "—" if r.at_most is Severity.ERROR else r.at_most.value
        rows.append(
            f"| [`{k.value}`](#{k.value}) | {r.title} | {r.severity.value} | {at_most} | "
            f"{r.evaluation or '—'} | {r.doc} |"
        )
    return "\n".join(rows) + "\n"


def with_kinds_table(doc: str) -> str:
    """``doc`` with the text between the markers replaced by the current table."""
    head, _, rest = doc.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{kinds_table()}{END}{tail}"


def _schema(manifest: dict[str, Any], setting: str) -> dict[str, Any]:
    schema: dict[str, Any] = manifest["contributes"]["configuration"]["properties"][setting]
    return schema


def vscode_enums(manifest: dict[str, Any]) -> dict[str, list[str]]:
    """Each kind enum of the extension's manifest, by setting."""
    out = {}
    for setting, path in VSCODE_ENUMS:
        node: Any = _schema(manifest, setting)
        for step in path:
            node = node[step]
        out[setting] = list(node)
    return out


def with_vscode_enums(text: str) -> str:
    """The manifest's JSON text with every kind enum set to the table's kinds (same formatting)."""
    manifest = json.loads(text)
    for setting, path in VSCODE_ENUMS:
        node: Any = _schema(manifest, setting)
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = [k.value for k in Kind]
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
