"""citecheck-lsp on statutes (issue 27): the impossible title is an error diagnostic, every other
statute an information naming its code, the hover says what a short form stands for, and the side
panel's citations carry each statute; positions in the client's encoding (an emoji before them)."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = (
    "😀 Plaintiff sues under 42 U.S.C. § 1983 and cites 55 U.S.C. § 100.\n\n"
    "Under § 1983, a person may sue; KRS 446.070 also applies.\n"
)


async def _hover(client: LanguageClient, h, uri: str, needle: str) -> str:
    pos = h.position_of(TEXT, TEXT.index(needle) + 1, client.encoding)
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos)
    )
    assert result is not None, needle
    return result.contents.value


async def test_statutes_in_diagnostics_hover_and_citations(client: LanguageClient, h) -> None:
    uri = "file:///ws/statutes.md"
    h.open_doc(client, uri, TEXT, language="markdown")
    diags = await h.wait_publish(
        client, uri, 1, lambda ds: sum(d.code == "statute-not-checked" for d in ds) >= 2
    )
    by_code = {(d.code, d.range.start.line, d.range.start.character) for d in diags}

    def at(needle: str) -> tuple[int, int]:
        p = h.position_of(TEXT, TEXT.index(needle), client.encoding)
        return p.line, p.character

    assert ("impossible-citation", *at("55 U.S.C.")) in by_code
    assert ("statute-not-checked", *at("42 U.S.C.")) in by_code
    assert ("statute-not-checked", *at("KRS")) in by_code
    [bad] = [d for d in diags if d.code == "impossible-citation"]
    assert bad.severity == types.DiagnosticSeverity.Error and "no title 55" in bad.message
    kentucky = next(d for d in diags if d.code == "statute-not-checked" and "Kentucky" in d.message)
    assert kentucky.severity in (types.DiagnosticSeverity.Information, types.DiagnosticSeverity.Hint)

    short = await _hover(client, h, uri, "§ 1983, a person")
    assert "Short form of `42 U.S.C. § 1983`" in short and "Statute: `42 U.S.C. § 1983` — U.S. Code" in short
    full = await _hover(client, h, uri, "42 U.S.C. § 1983")
    # said once: the first line; the diagnostic beside it carries the code (statute-not-checked) and why
    assert full.count("not checked") == 1 and "not checked (a statute or regulation" in full

    for _ in range(300):
        got = [p for p in client.citations[uri] if any(c.status != "pending" for c in p.citations)]  # type: ignore[attr-defined]
        if got:
            break
        await asyncio.sleep(0.05)
    cites = {c.text: c for c in got[-1].citations}
    assert cites["§ 1983"].form == "statute" and cites["§ 1983"].statute.resolved == "42 U.S.C. § 1983"
    assert cites["KRS 446.070"].statute.jurisdiction == "Kentucky"
    assert cites["55 U.S.C. § 100"].status == "problem" and cites["KRS 446.070"].status == "not-checked"
