"""The kinds table (``citecheck.findings.Kind``) is the one source of what a finding kind is: docs/findings.md's
table and sections, the VS Code settings' enums and the evaluation's categories follow it.

After adding or changing a kind, ``CITECHECK_REGEN_GOLDEN=1 python -m pytest -q tests/test_findings_docs.py``
rewrites docs/findings.md's table and clients/vscode/package.json's enums.
"""

from __future__ import annotations

import json
import os
import re

import pytest

from citecheck.evaluation.scoring import _TYPE_ALIASES, KIND_CATEGORY
from citecheck.findings import (
    DEFAULT_SEVERITY,
    INFO_ONLY,
    KIND_DOCS,
    KIND_TITLE,
    WARNING_AT_MOST,
    Kind,
    KindRow,
    Severity,
    docs_url,
    kind_title,
    make_finding,
)
from citecheck.spans import Span
from citecheck_testing import REPO_ROOT
from citecheck_testing.kinds_table import kinds_table, vscode_enums, with_kinds_table, with_vscode_enums

FINDINGS_MD = REPO_ROOT / "docs" / "findings.md"
PACKAGE_JSON = REPO_ROOT / "clients" / "vscode" / "package.json"
REGEN = "CITECHECK_REGEN_GOLDEN=1 python -m pytest -q tests/test_findings_docs.py"


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^## ([a-z-]+)\s*$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def test_the_table_in_the_docs_is_the_kinds_table() -> None:
    doc = FINDINGS_MD.read_text(encoding="utf-8")
    if os.environ.get("CITECHECK_REGEN_GOLDEN") == "1":
        FINDINGS_MD.write_text(with_kinds_table(doc), encoding="utf-8")
        return
    assert kinds_table() in doc, f"docs/findings.md's table differs from the kinds table; run {REGEN}"


def test_every_kind_has_a_section_that_opens_with_its_default_severity() -> None:
    sections = _sections(FINDINGS_MD.read_text(encoding="utf-8"))
    missing = [k.value for k in Kind if k.value not in sections]
    assert not missing, f"docs/findings.md lacks sections for {missing}"
    for k in Kind:
        opening = f"**{k.row.severity.value.capitalize()}"
        assert sections[k.value].lstrip().startswith(opening), f"## {k}: should open with {opening}…"
        assert "**What to do:**" in sections[k.value], f"## {k}: says what to do"
    assert docs_url(Kind.MISQUOTE).endswith("docs/findings.md#misquote")


def test_the_vscode_settings_offer_every_kind_and_no_other() -> None:
    text = PACKAGE_JSON.read_text(encoding="utf-8")
    if os.environ.get("CITECHECK_REGEN_GOLDEN") == "1":
        PACKAGE_JSON.write_text(with_vscode_enums(text), encoding="utf-8")
        return
    for setting, enum in vscode_enums(json.loads(text)).items():
        assert enum == [k.value for k in Kind], f"{setting}'s enum differs from the kinds table; run {REGEN}"


def test_the_lookups_are_the_table() -> None:
    assert set(KIND_TITLE) == set(KIND_DOCS) == set(DEFAULT_SEVERITY) == set(Kind)
    assert all(kind_title(k) == k.row.title != k.value for k in Kind)
    assert INFO_ONLY == {k for k in Kind if k.row.at_most is Severity.INFO}
    assert Kind.CANNOT_VERIFY in INFO_ONLY and WARNING_AT_MOST == {
        Kind.UNSUPPORTED_HOLDING,
        Kind.NEGATIVELY_TREATED,
    }
    # the evaluation counts each kind for its row's category, and only for categories it knows
    assert KIND_CATEGORY == {k: k.row.evaluation for k in Kind if k.row.evaluation}
    assert set(KIND_CATEGORY.values()) <= set(_TYPE_ALIASES.values())


@pytest.mark.parametrize("kind", list(Kind))
def test_a_kind_never_goes_past_its_cap_nor_starts_past_it(kind: Kind) -> None:
    row: KindRow = kind.row
    assert row.severity.rank <= row.at_most.rank, f"{kind}: default severity above its cap"
    assert row.title.strip() and row.doc.strip()
    f = make_finding(kind, Span(0, 1), "m")
    assert f.with_severity(Severity.ERROR).severity.rank <= row.at_most.rank
