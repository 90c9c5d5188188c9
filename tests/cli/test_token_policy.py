"""The CourtListener token goes only over https to the official host, unless the user's own
environment allows another host; a folder's citecheck.toml or an editor's workspace settings cannot
redirect it. The end-to-end test runs a real loopback server and looks at what reached it."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import ClassVar

import pytest

from citecheck.config import settings_from_env, settings_from_mapping, token_refusal
from citecheck.config.files import load_settings
from citecheck.sources.corpus_server import QuietHTTPServer


@pytest.mark.parametrize(
    ("url", "allowed", "ok"),
    [
        ("https://www.courtlistener.com/api/rest/v4/", set(), True),
        ("https://courtlistener.com/api/rest/v4/", set(), True),
        ("http://www.courtlistener.com/api/rest/v4/", set(), False),  # plain http, even to the right host
        ("https://www.courtlistener.com:8443/api/", set(), False),
        ("https://www.courtlistener.com.evil.example/api/", set(), False),
        ("https://evil.example/api/", set(), False),
        ("http://127.0.0.1:8000/api/", set(), False),  # loopback too needs the user's say-so
        ("http://127.0.0.1:8000/api/", {"127.0.0.1"}, True),
        ("http://127.0.0.1:8000/api/", {"127.0.0.1:8000"}, True),
        ("http://127.0.0.1:8000/api/", {"127.0.0.1:9"}, False),
        ("http://mirror.firm.example/api/", {"mirror.firm.example"}, False),  # allowed, but not https
        ("https://mirror.firm.example/api/", {"mirror.firm.example"}, True),
        ("not a url::", set(), False),
    ],
)
def test_token_refusal(url: str, allowed: set[str], ok: bool) -> None:
    assert (token_refusal(url, frozenset(allowed)) is None) is ok


def test_only_user_level_layers_can_allow_a_host(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text(
        'courtlistener_url = "http://evil.example/"\ntoken_hosts = "evil.example"\n'
    )
    settings, used = load_settings(cwd=tmp_path, environ={"CITECHECK_COURTLISTENER_TOKEN": "s3cret"})
    assert used == tmp_path / "citecheck.toml"
    assert settings.token_hosts == frozenset()
    assert settings.courtlistener_url == "https://www.courtlistener.com/api/rest/v4/"  # not the folder's
    # a mapping from the folder (LSP workspace configuration) goes through the same untrusted path
    assert settings_from_mapping({"tokenHosts": ["evil.example"]}).token_hosts == frozenset()
    assert settings_from_env({"CITECHECK_TOKEN_HOSTS": "Mirror.Example, 127.0.0.1"}).token_hosts == {
        "mirror.example",
        "127.0.0.1",
    }
    env_allowed, _ = load_settings(cwd=tmp_path, environ={"CITECHECK_TOKEN_HOSTS": "evil.example"})
    assert env_allowed.token_hosts == {"evil.example"}


def test_lsp_workspace_settings_cannot_allow_a_host() -> None:
    from citecheck.lsp.server import CiteServer

    server = CiteServer()
    s = server.compute_settings(
        {
            "courtlistenerUrl": "http://evil.example/",
            "tokenHosts": ["evil.example"],
            "courtlistenerToken": "s3",
        }
    )
    assert s.token_hosts == server.base_settings.token_hosts
    assert s.courtlistener_url == server.base_settings.courtlistener_url
    assert s.courtlistener_token == server.base_settings.courtlistener_token
    # the editor's launch options are the user's own (VS Code fills them from user settings only)
    server.init_options = {"courtlistenerUrl": "https://mirror.example/", "tokenHosts": "mirror.example"}
    s = server.compute_settings({})
    assert token_refusal(s.courtlistener_url, s.token_hosts) is None


class _Thief(BaseHTTPRequestHandler):
    seen: ClassVar[list[dict[str, str]]] = []

    def do_GET(self) -> None:
        type(self).seen.append(dict(self.headers))
        self.send_response(503)
        self.end_headers()

    do_POST = do_GET

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def thief():
    handler = type("Thief", (_Thief,), {"seen": []})
    httpd = QuietHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/api/rest/v4/", handler.seen
    httpd.shutdown()
    httpd.server_close()


def test_a_folder_config_cannot_redirect_the_token(run_cli, cli_home, thief, tmp_path, monkeypatch) -> None:
    url, seen = thief
    folder = tmp_path / "matter"
    folder.mkdir()
    (folder / "citecheck.toml").write_text(f'courtlistener_url = "{url}"\ntoken_hosts = ["127.0.0.1"]\n')
    (folder / "brief.md").write_text("See Roe v. Wade, 410 U.S. 113 (1973).\n")
    monkeypatch.delenv("CITECHECK_CONFIG")
    monkeypatch.delenv("CITECHECK_COURTLISTENER_URL")
    monkeypatch.setenv("CITECHECK_COURTLISTENER_TOKEN", "s3cret-token-value")
    monkeypatch.setenv("CITECHECK_CAP_FETCH", "0")
    monkeypatch.chdir(folder)
    r = run_cli("check", "brief.md")
    assert r.rc in (0, 1)
    assert not any("s3cret-token-value" in str(h) for h in seen), seen
    assert seen == []  # the folder's URL is refused as a whole: nothing reaches it
    assert "s3cret-token-value" not in r.out + r.err
    # and the user's own environment can choose it and allow it (so the test above can fail)
    monkeypatch.setenv("CITECHECK_COURTLISTENER_URL", url)
    monkeypatch.setenv("CITECHECK_TOKEN_HOSTS", "127.0.0.1")
    run_cli("check", "brief.md")
    assert any("s3cret-token-value" in str(h) for h in seen)


def test_vscode_restricts_url_settings_in_untrusted_workspaces() -> None:
    import json

    from citecheck_testing import REPO_ROOT

    manifest = json.loads((REPO_ROOT / "clients" / "vscode" / "package.json").read_text())
    restricted = set(manifest["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"])
    assert {"citecheck.courtlistenerUrl", "citecheck.capUrl", "citecheck.modelUrl"} <= restricted
