"""Finding → Diagnostic / CodeAction, and the JSON re-use of the renderer."""

from __future__ import annotations

import json

from lsprotocol import types
from pygls.protocol import default_converter

from citecheck.findings import Evidence, Fix, Kind, TextEdit, make_finding
from citecheck.ignores import IgnoreKey
from citecheck.lsp.convert import ClientFeatures, Renderer, Shown, fix_actions, ignore_actions, to_diagnostic
from citecheck.lsp.positions import LineIndex
from citecheck.spans import Span

TEXT = "😀 Smith v. Jones, 100 A.2d 38 (D.C. 1953).\n"
NAME = Span(TEXT.index("Smith"), TEXT.index("Smith") + len("Smith v. Jones"))
KEY = IgnoreKey(kind="name-mismatch", citation="100 a.2d 38")


def _finding():
    return make_finding(
        Kind.NAME_MISMATCH,
        NAME,
        "100 A.2d 38 is Branson v. Harris",
        evidence=Evidence(
            case_name="Branson v. Harris",
            citation="100 A.2d 38",
            court="D.C.",
            date="1953-11-06",
            passage="the passage",
            page="39",
            source="corpus",
        ),
        fixes=(
            Fix(title="Use Branson v. Harris", edits=(TextEdit(span=NAME, new_text="Branson v. Harris"),)),
        ),
    )


def test_diagnostic_fields_and_utf16_range() -> None:
    d = to_diagnostic(
        _finding(),
        uri="file:///a.txt",
        index=LineIndex(TEXT),
        encoding="utf-16",
        key=KEY,
        client=ClientFeatures(),
    )
    assert d.code == "name-mismatch" and d.source == "citecheck"
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.code_description is None  # no link to a URL the package does not declare (issue 36)
    assert d.range.start == types.Position(line=0, character=3)  # the emoji is two UTF-16 units
    assert any("Branson v. Harris" in r.message for r in d.related_information)
    assert any("Page 39" in r.message for r in d.related_information)
    edit = d.data["fixes"][0]["edits"][0]
    assert edit["newText"] == "Branson v. Harris" and edit["oldText"] == "Smith v. Jones"
    assert d.data["key"] == KEY.to_json()


def test_client_without_support_gets_plain_diagnostic() -> None:
    client = ClientFeatures(related_information=False, code_description=False, data=False)
    d = to_diagnostic(
        _finding(), uri="file:///a.txt", index=LineIndex(TEXT), encoding="utf-32", key=KEY, client=client
    )
    assert d.related_information is None and d.code_description is None
    assert d.range.start.character == 2


def test_actions_from_fixes_and_ignore_commands() -> None:
    d = to_diagnostic(
        _finding(),
        uri="file:///a.txt",
        index=LineIndex(TEXT),
        encoding="utf-8",
        key=KEY,
        client=ClientFeatures(),
    )
    (fix,) = fix_actions("file:///a.txt", d, d.data["fixes"])
    assert fix.is_preferred and fix.edit.changes["file:///a.txt"][0].range == d.range
    ignores = ignore_actions("file:///a.txt", d, KEY)
    assert [a.command.arguments[0]["scope"] for a in ignores] == ["finding", "citation"]


def test_renderer_reuses_json_while_the_position_holds() -> None:
    r = Renderer(default_converter(), ClientFeatures())
    (first,) = r.render(
        [Shown(_finding(), KEY)], uri="file:///a.txt", index=LineIndex(TEXT), encoding="utf-16", version=1
    )
    assert json.loads(first.json)["range"]["start"] == {"line": 0, "character": 3}
    # same text, next version: the JSON is re-used as is
    (again,) = r.render([first], uri="file:///a.txt", index=LineIndex(TEXT), encoding="utf-16", version=2)
    assert again.json is first.json and again.rendered_for == 2
    # text inserted before it on the same line: re-rendered with the new range
    moved_text = "xx" + TEXT
    moved = Shown(
        make_finding(Kind.NAME_MISMATCH, NAME.shift(2), "m", fixes=()),
        KEY,
        first.range,
        first.fix_ranges,
        first.diagnostic,
        first.json,
        None,
    )
    (third,) = r.render(
        [moved], uri="file:///a.txt", index=LineIndex(moved_text), encoding="utf-16", version=3
    )
    assert json.loads(third.json)["range"]["start"]["character"] == 5


def test_the_code_description_links_only_a_declared_url(monkeypatch) -> None:
    from citecheck.report import help as report_help

    monkeypatch.setattr(report_help, "declared_docs_url", lambda: "https://docs.example.org/findings")
    d = to_diagnostic(
        _finding(),
        uri="file:///a.txt",
        index=LineIndex(TEXT),
        encoding="utf-16",
        key=KEY,
        client=ClientFeatures(),
    )
    assert d.code_description.href == "https://docs.example.org/findings#name-mismatch"
