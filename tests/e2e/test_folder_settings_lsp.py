"""Workspace settings (which the folder being checked may write: ``.vscode/settings.json``) cannot choose
where the draft and the model key go: a real ``citecheck-lsp --stdio`` with the user's model key in its
environment, a loopback recorder named by the workspace settings, and the real corpus. The recorder must
see nothing; named in the editor's launch options (the user's own), it sees the judgment request."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

from pytest_lsp import ClientServerConfig, client_capabilities

from citecheck_testing.model_endpoint import FakeEndpoint, judgment

BRIEF = (
    "The government may rely on a defendant's prior convictions as proof that he is guilty of the offense "
    "charged. Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n"
    "Wrong year: Branson v. Harris, 100 A.2d 38 (D.C. 1961).\n"
)
KEY = "sk-user-own-model-key-31337"


async def _session(h, corpus_db: Path, tmp_path: Path, *, workspace: dict, launch: dict, until=None) -> None:
    """One server session on the brief; after stage 2 it waits for ``until()`` (up to 60 s), or 3 s for a
    third stage to send anything when nothing is awaited."""
    config = ClientServerConfig(
        server_command=h.config.server_command,
        client_factory=h.config.client_factory,
        server_env={**os.environ, "CITECHECK_MODEL_API_KEY": KEY},
    )
    client = await config.start()
    client.set_configuration({"citecheck": workspace})
    try:
        await h.start_session(
            client,
            client_capabilities("visual-studio-code"),
            h.init_options(corpus_db, tmp_path, **{"offline": False, **launch}),
        )
        uri = "file:///matter/brief.txt"
        h.open_doc(client, uri, BRIEF)
        await h.wait_publish(
            client, uri, 1, lambda ds: any(d.code == "year-mismatch" for d in ds), timeout=40
        )
        waited, limit = 0.0, (3.0 if until is None else 60.0)
        while waited < limit and not (until is not None and until()):
            await asyncio.sleep(0.1)
            waited += 0.1
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.shutdown_session(), 20)
        await client.stop()


async def test_workspace_settings_cannot_send_the_draft_or_key_elsewhere(h, corpus_db: Path, tmp_path: Path):
    ep = FakeEndpoint()
    ep.answer(judgment("contradicted", "credibility", "reversed-meaning"))
    try:
        folder_says = {"modelUrl": ep.url, "modelName": "fake-judge", "modelRetries": 0}
        await _session(h, corpus_db, tmp_path, workspace=folder_says, launch={})
        assert ep.paths == [] and ep.headers == []  # not one request: no proposition, no key
        # the same URL from the editor's launch options (the user's own settings) is used, with the key
        await _session(
            h,
            corpus_db,
            tmp_path,
            workspace={},
            launch={"modelUrl": ep.url, "modelName": "fake-judge"},
            until=lambda: any(p.endswith("/chat/completions") for p in ep.paths),
        )
        assert any(p.endswith("/chat/completions") for p in ep.paths), ep.paths
        assert any(hd.get("authorization") == f"Bearer {KEY}" for hd in ep.headers)
    finally:
        ep.close()


async def test_workspace_settings_cannot_undo_what_the_user_turned_off(h, corpus_db: Path, tmp_path: Path):
    """Issue 35: with the holding check (or the network) turned off in the user's own launch options,
    workspace settings saying ``holdings = true`` / ``offline = false`` sent the proposition and the key.
    A folder may make these stricter, never looser: the recorder sees nothing."""
    ep = FakeEndpoint()
    ep.answer(judgment("contradicted", "credibility", "reversed-meaning"))
    try:
        users = {"modelUrl": ep.url, "modelName": "fake-judge"}
        undo = {"holdings": True, "offline": False, "capFetch": True, "modelRetries": 0}
        await _session(h, corpus_db, tmp_path, workspace=undo, launch={**users, "holdings": False})
        await _session(h, corpus_db, tmp_path, workspace=undo, launch={**users, "offline": True})
        assert ep.paths == [] and ep.headers == []
        # the same launch options without the user's "off" send (so this test can fail)
        await _session(
            h, corpus_db, tmp_path, workspace=undo, launch=users,
            until=lambda: any(p.endswith("/chat/completions") for p in ep.paths),
        )  # fmt: skip
        assert any(p.endswith("/chat/completions") for p in ep.paths), ep.paths
    finally:
        ep.close()
