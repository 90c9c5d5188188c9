"""The LSP's third stage: holding judgments after stages 1/2, with ``$/progress``, cancelled by edits.

A real ``citecheck-lsp --stdio`` against a real loopback OpenAI-compatible endpoint with scripted
(slow) answers and the real corpus.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from lsprotocol import types
from pytest_lsp import client_capabilities

from citecheck_testing.model_endpoint import FakeEndpoint, Step, judgment

BRIEF = (
    "The government may rely on a defendant's prior convictions as proof that he is guilty of the offense "
    "charged. Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n"
    "Wrong year: Branson v. Harris, 100 A.2d 38 (D.C. 1961).\n"
)
HOLDING = "evidence of such convictions must be restricted to the question of defendant’s credibility"


def _options(h, corpus: Path, tmp: Path, ep: FakeEndpoint) -> dict:
    return h.init_options(corpus, tmp, offline=False, modelUrl=ep.url, modelName="fake-judge", modelRetries=0)


async def test_holding_findings_arrive_after_the_source_findings(h, corpus_db: Path, tmp_path: Path) -> None:
    ep = FakeEndpoint()
    slow = judgment("contradicted", HOLDING, "reversed-meaning")
    slow.delay = 1.5  # the judge is slow: stage 2 must not wait for it
    ep.answer(slow)
    client = await h.config.start()
    try:
        await h.start_session(
            client, client_capabilities("visual-studio-code"), _options(h, corpus_db, tmp_path, ep)
        )
        uri = "file:///holdings/brief.txt"
        h.open_doc(client, uri, BRIEF)
        diags = await h.wait_publish(
            client, uri, 1, lambda ds: any(d.code == "unsupported-holding" for d in ds), timeout=40
        )
        waves = [[d.code for d in p.diagnostics] for p in client.published[uri] if p.version == 1]
        assert any("year-mismatch" in w and "unsupported-holding" not in w for w in waves), (
            waves
        )  # stage 2 first
        (d,) = [d for d in diags if d.code == "unsupported-holding"]
        assert d.severity == types.DiagnosticSeverity.Warning and "opposite" in d.message
        assert "year-mismatch" in [x.code for x in diags]  # stage 2's findings stay
        reports = [r for r in client.progress_reports.values() if r]
        titles = [r[0].message for r in reports if isinstance(r[0], types.WorkDoneProgressBegin)]
        assert any("propositions" in (t or "") for t in titles), titles
        hover = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=0, character=BRIEF.index("100 A.2d 36") + 2),
            )
        )
        assert (
            hover is not None
            and "contradicted" in str(hover.contents)
            and "fake-judge" in str(hover.contents)
        )
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.shutdown_session(), 20)
        ep.close()
        await client.stop()


async def test_an_edit_cancels_a_stale_judgment(h, corpus_db: Path, tmp_path: Path) -> None:
    ep = FakeEndpoint()
    ep.answer(Step(delay=3.0, body=judgment("contradicted", HOLDING, "reversed-meaning").body))
    client = await h.config.start()
    try:
        await h.start_session(
            client, client_capabilities("visual-studio-code"), _options(h, corpus_db, tmp_path, ep)
        )
        uri = "file:///holdings/cancel.txt"
        h.open_doc(client, uri, BRIEF)
        await h.wait_publish(
            client, uri, 1, lambda ds: any(d.code == "year-mismatch" for d in ds), timeout=30
        )
        for _ in range(1000):  # the judgment for version 1 is in flight
            if ep.chat_requests:
                break
            await asyncio.sleep(0.02)
        assert ep.chat_requests
        h.change_doc(
            client,
            uri,
            2,
            types.TextDocumentContentChangeWholeDocument(text=BRIEF.replace("Wrong year", "Year")),
        )
        await asyncio.sleep(4.5)  # longer than the judge takes
        stale = [
            p
            for p in client.published[uri]
            if p.version == 1 and any(d.code == "unsupported-holding" for d in p.diagnostics)
        ]
        assert stale == []  # the version-1 judgment was never published
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.shutdown_session(), 20)
        ep.close()
        await client.stop()
