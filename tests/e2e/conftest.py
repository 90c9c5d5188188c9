"""Fixtures that start the real ``citecheck-lsp --stdio`` and drive it with pytest-lsp.

Each capability set (VS Code, Neovim 0.11, Emacs 29) gets one server per test module; tests use
distinct document URIs so they do not see each other's documents. The corpus is a real SQLite file
imported from ../shared/corpus by the project's own importers; the server runs offline.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from citecheck_testing import import_shared_corpus, shared_corpus_or_empty

SERVER = [sys.executable, "-m", "citecheck.lsp", "--stdio", "--log-level", "WARNING"]
CLIENTS = ["visual-studio-code", "neovim@v0.11.0", "emacs"]
DEBOUNCE_MS = 60


def _recording_client() -> LanguageClient:
    """pytest-lsp's client, plus a log of every publish (with its version) and citations notification."""
    client = LanguageClient()
    client.published = defaultdict(list)  # type: ignore[attr-defined]
    client.citations = defaultdict(list)  # type: ignore[attr-defined]

    def publish(c: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        c.diagnostics[params.uri] = params.diagnostics
        c.published[params.uri].append(params)  # type: ignore[attr-defined]

    def citations(c: LanguageClient, params: Any) -> None:
        c.citations[params.uri].append(params)  # type: ignore[attr-defined]

    def register_capability(c: LanguageClient, params: types.RegistrationParams) -> None:
        c.registrations = [*getattr(c, "registrations", []), *params.registrations]  # type: ignore[attr-defined]

    features = {
        **DEFAULT_CLIENT_FEATURES,
        types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
        types.CLIENT_REGISTER_CAPABILITY: register_capability,
    }
    register_lsp_features(client, features)
    client.feature("citecheck/citations")(lambda params: citations(client, params))
    return client


# The user running these sessions allows the loopback stand-ins to receive the CourtListener token
# (a user-level setting: initializationOptions alone could not, see docs/security.md).
CONFIG = ClientServerConfig(
    server_command=SERVER,
    client_factory=_recording_client,
    server_env={**os.environ, "CITECHECK_TOKEN_HOSTS": "127.0.0.1"},
)


@pytest.fixture(scope="session")
def corpus_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real corpus: the CAP 100 A.2d fixture and the CourtListener bulk sample, imported (a test using it
    skips, with the reason, on a clone without ../shared)."""
    return import_shared_corpus(tmp_path_factory.mktemp("corpus") / "corpus.sqlite")


@pytest.fixture(scope="session")
def any_corpus_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``corpus_db``, or an empty corpus on a clone without ../shared: for the sessions of test_server.py,
    most of whose tests need no case (those that do skip inside themselves there)."""
    return shared_corpus_or_empty(tmp_path_factory.mktemp("any-corpus") / "corpus.sqlite")


def init_options(corpus: Path, cache_dir: Path, **extra: Any) -> dict[str, Any]:
    return {
        "corpusPath": str(corpus),
        "cachePath": str(cache_dir / "cache.sqlite"),
        "offline": True,
        "capFetch": False,
        "debounceMs": DEBOUNCE_MS,
        **extra,
    }


async def start_session(
    client: LanguageClient,
    caps: types.ClientCapabilities,
    options: dict[str, Any],
    root: Path | None = None,
) -> types.InitializeResult:
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            initialization_options=options,
            root_uri=root.as_uri() if root else None,
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")] if root else None,
        )
    )
    client.encoding = str(result.capabilities.position_encoding or "utf-16")  # type: ignore[attr-defined]
    return result


@pytest_lsp.fixture(params=CLIENTS, config=CONFIG, scope="module")
async def client(
    request: pytest.FixtureRequest, lsp_client: LanguageClient, any_corpus_db: Path, tmp_path_factory
):
    cache = tmp_path_factory.mktemp("cache")
    await start_session(lsp_client, client_capabilities(request.param), init_options(any_corpus_db, cache))
    lsp_client.kind = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


# ---- helpers used by the tests ----------------------------------------------------------------


def open_doc(
    client: LanguageClient, uri: str, text: str, version: int = 1, language: str = "plaintext"
) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language, version=version, text=text)
        )
    )


def change_doc(
    client: LanguageClient, uri: str, version: int, *changes: types.TextDocumentContentChangeEvent
) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=list(changes),
        )
    )


async def wait_publish(
    client: LanguageClient,
    uri: str,
    version: int,
    predicate: Callable[[list[types.Diagnostic]], bool] = lambda d: True,
    timeout: float = 15.0,
) -> list[types.Diagnostic]:
    """The latest diagnostics published for ``version`` once ``predicate`` holds for them."""
    deadline = time.monotonic() + timeout
    while True:
        for params in reversed(client.published[uri]):  # type: ignore[attr-defined]
            if params.version == version and predicate(list(params.diagnostics)):
                return list(params.diagnostics)
        if time.monotonic() > deadline:
            seen = [(p.version, [d.code for d in p.diagnostics]) for p in client.published[uri]]  # type: ignore[attr-defined]
            raise AssertionError(
                f"no publish for {uri} v{version} matching; saw {seen}; last {client.diagnostics.get(uri)}"
            )
        await asyncio.sleep(0.02)


def units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def position_of(text: str, offset: int, encoding: str) -> types.Position:
    """Reference conversion for assertions (LSP line rule, Python codecs)."""
    before = text[:offset]
    line = before.count("\n") + before.count("\r") - before.count("\r\n")
    last = max(before.rfind("\n"), before.rfind("\r"))
    return types.Position(line=line, character=units(before[last + 1 :], encoding))


@pytest.fixture
def h():
    """The helpers above, as a fixture (tests cannot import conftest under importlib mode)."""
    import types as _t

    return _t.SimpleNamespace(
        open_doc=open_doc,
        change_doc=change_doc,
        wait_publish=wait_publish,
        position_of=position_of,
        units=units,
        start_session=start_session,
        init_options=init_options,
        recording_client=_recording_client,
        config=CONFIG,
    )
