"""Every finding kind has its section in docs/findings.md, so a declared documentation URL's ``#kind`` never
dangles; and no report links to a URL the package does not declare (issue 36)."""

from __future__ import annotations

import re

from citecheck.findings import Kind
from citecheck.report import help as report_help
from citecheck_testing import REPO_ROOT


def test_every_kind_has_a_section() -> None:
    text = (REPO_ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^## ([a-z-]+)\s*$", text, re.M))
    missing = [k.value for k in Kind if k.value not in headings]
    assert not missing, f"docs/findings.md lacks sections for {missing}"


def test_help_links_go_only_to_a_url_the_package_declares(monkeypatch) -> None:
    import tomllib

    declared = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"].get(
        "urls", {}
    )
    assert report_help.docs_url(Kind.MISQUOTE) == (
        f"{declared['Documentation']}#misquote" if "Documentation" in declared else None
    )
    monkeypatch.setattr(report_help, "declared_docs_url", lambda: "https://docs.example.org/findings")
    assert report_help.docs_url(Kind.MISQUOTE) == "https://docs.example.org/findings#misquote"
    assert report_help.what_it_means(Kind.MISQUOTE).startswith("The quoted passage")


def test_every_kind_has_a_plain_english_title() -> None:
    """The HTML report and the Word pane head each finding with ``KIND_TITLE``, not the kind's code."""
    from citecheck.findings import KIND_TITLE, kind_title

    missing = [k.value for k in Kind if not KIND_TITLE.get(k, "").strip()]
    assert not missing, f"findings.KIND_TITLE lacks titles for {missing}"
    assert all(kind_title(k) != k.value for k in Kind)
