"""citecheck-lsp shows each citation's weight in the forum: the example brief (D.C. Court of Appeals caption)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from citecheck_testing import has_shared_corpus

pytestmark = pytest.mark.asyncio(loop_scope="module")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brief.md"


async def _hover(client: LanguageClient, h, uri: str, text: str, needle: str) -> str:
    pos = h.position_of(text, text.index(needle) + 1, client.encoding)
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos)
    )
    assert result is not None, needle
    return result.contents.value


async def test_example_brief_weights_in_hover_and_minnesota_case_flagged(client: LanguageClient, h) -> None:
    uri = "file:///ws/jurisdiction-brief.md"
    text = EXAMPLE.read_text(encoding="utf-8")
    h.open_doc(client, uri, text, language="markdown")
    diags = await h.wait_publish(
        client, uri, 1, lambda ds: any(d.code == "non-binding-authority" for d in ds)
    )
    [nb] = [d for d in diags if d.code == "non-binding-authority"]
    assert nb.severity == types.DiagnosticSeverity.Information
    assert nb.range.start == h.position_of(text, text.index("761 N.W.2d 645"), client.encoding)
    # the corpus record says the Court of Appeals of Wisconsin decided it (the parenthetical's "Minn. Ct. App."
    # is the brief's court-mismatch); the record's court is the one weighed, and either way it binds no D.C. court.
    # On a clone with nothing beside it the corpus is empty and the parenthetical's court is weighed.
    state = "Wisconsin" if has_shared_corpus() else "Minnesota"
    assert (
        f"Court of Appeals of {state}" in nb.message and "District of Columbia Court of Appeals" in nb.message
    )

    cook = await _hover(client, h, uri, text, "761 N.W.2d 645")
    assert "**Persuasive** only here" in cook and state in cook
    savage = await _hover(client, h, uri, text, "100 A.2d 450")
    assert "**Binding** here" in savage
    short = await _hover(client, h, uri, text, "Cook*, 761 N.W.2d at 650")  # the footnote's short form
    assert "**Persuasive** only here" in short
    ross = await _hover(client, h, uri, text, "2019 WL 1396975")
    assert "**Persuasive** only here" in ross  # D.C. Super. Ct.: a trial court binds no one
