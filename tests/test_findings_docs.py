"""Every finding kind has its section in docs/findings.md, so ``findings.docs_url(kind)`` never dangles."""

from __future__ import annotations

import re

from citecheck.findings import Kind, docs_url
from citecheck_testing import REPO_ROOT


def test_every_kind_has_a_section() -> None:
    text = (REPO_ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^## ([a-z-]+)\s*$", text, re.M))
    missing = [k.value for k in Kind if k.value not in headings]
    assert not missing, f"docs/findings.md lacks sections for {missing}"
    assert docs_url(Kind.MISQUOTE).endswith("docs/findings.md#misquote")


def test_every_kind_has_a_plain_english_title() -> None:
    """The HTML report and the Word pane head each finding with ``KIND_TITLE``, not the kind's code."""
    from citecheck.findings import KIND_TITLE, kind_title

    missing = [k.value for k in Kind if not KIND_TITLE.get(k, "").strip()]
    assert not missing, f"findings.KIND_TITLE lacks titles for {missing}"
    assert all(kind_title(k) != k.value for k in Kind)
