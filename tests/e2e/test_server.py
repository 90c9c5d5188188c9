"""citecheck-lsp over stdio, parameterised over the VS Code, Neovim 0.11 and Emacs capability sets."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

# An emoji (2 UTF-16 units, 4 UTF-8 bytes), §, Word's \v and CRLF before the citation, so a column
# computed in the wrong encoding or on the wrong line is caught.
PREFIX = "Intro 😀 § para\vsecond line\r\nSee "
BAD = "33 Umbrella 422"  # citation-shaped, unknown reporter: a local (stage-1) finding


def _range_of(h, text: str, needle: str, encoding: str) -> types.Range:
    start = text.index(needle)
    return types.Range(
        start=h.position_of(text, start, encoding), end=h.position_of(text, start + len(needle), encoding)
    )


async def test_open_edit_close(client: LanguageClient, h) -> None:
    uri = "file:///ws/open_edit_close.txt"
    text = PREFIX + BAD + " (1999).\n"
    h.open_doc(client, uri, text)
    diags = await h.wait_publish(client, uri, 1, lambda ds: any(d.code == "impossible-citation" for d in ds))
    d = next(d for d in diags if d.code == "impossible-citation")
    assert d.source == "citecheck"
    assert d.range.start == h.position_of(text, text.index(BAD), client.encoding)
    # edit: delete the bad citation entirely → its diagnostic goes, and the publish is for version 2
    start = text.index(BAD)
    rng = _range_of(h, text, BAD, client.encoding)
    h.change_doc(client, uri, 2, types.TextDocumentContentChangePartial(range=rng, text=""))
    await h.wait_publish(client, uri, 2, lambda ds: not any(d.code == "impossible-citation" for d in ds))
    assert start > 0
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    for _ in range(100):
        last = client.published[uri][-1]
        if last.version is None and len(last.diagnostics) == 0:
            break
        await asyncio.sleep(0.02)
    assert len(client.published[uri][-1].diagnostics) == 0


async def test_position_encoding_is_negotiated(client: LanguageClient) -> None:
    expected = {"visual-studio-code": "utf-16", "neovim@v0.11.0": "utf-8", "emacs": "utf-32"}[client.kind]
    assert client.encoding == expected
