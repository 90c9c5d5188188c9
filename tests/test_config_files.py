"""Settings layering: defaults → the user's settings file → citecheck.toml / [tool.citecheck] → CITECHECK_* →
flags; a folder's file cannot choose hosts, keys or files, a file the user names can."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.config import Settings, user_config_path
from citecheck.config.files import find_config_file, load_settings, load_user_settings, read_config_file
from citecheck.errors import ConfigError
from citecheck.findings import Severity


def test_citecheck_toml_is_found_upwards_and_read_as_the_folders(tmp_path, caplog):
    (tmp_path / "citecheck.toml").write_text('corpus = "data/corpus.sqlite"\noffline = true\n')
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    settings, used = load_settings(cwd=deep, environ={})
    assert used == tmp_path / "citecheck.toml"
    assert settings.offline is True
    # the folder's file may not choose the file read as evidence: ignored, with a warning
    assert settings.corpus_path == Settings().corpus_path
    assert any("corpus_path" in r.message and "it is ignored" in r.message for r in caplog.records)


def test_a_file_the_user_names_may_choose_files_relative_to_itself(tmp_path):
    (tmp_path / "mine.toml").write_text('corpus = "data/corpus.sqlite"\n')
    settings, _ = load_settings(config_file=tmp_path / "mine.toml", environ={})
    assert settings.corpus_path == (tmp_path / "data" / "corpus.sqlite").resolve()
    settings, _ = load_settings(cwd=tmp_path, environ={"CITECHECK_CONFIG": str(tmp_path / "mine.toml")})
    assert settings.corpus_path == (tmp_path / "data" / "corpus.sqlite").resolve()


@pytest.mark.parametrize(
    ("key", "attr"),
    [
        ("index", "index_path"),
        ("index_path", "index_path"),
        ("indexPath", "index_path"),
        ("statutes", "statutes_path"),
        ("statutes_path", "statutes_path"),
        ("statutesPath", "statutes_path"),
        ("cache_path", "cache_path"),
    ],
)
def test_every_path_setting_in_a_file_is_relative_to_the_file(tmp_path, monkeypatch, key, attr):
    """The citation index and statute index (issues 23, 27) are files like the corpus: a relative
    ``index = "data/index.sqlite"`` in ``--config`` or the user's settings file means beside that file,
    not wherever ``citecheck`` happens to be run from (it was the current folder: a sync in one folder
    and a check in another read two different indexes)."""
    (tmp_path / "mine.toml").write_text(f'{key} = "data/x.sqlite"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    settings, _ = load_settings(config_file=tmp_path / "mine.toml", cwd=elsewhere, environ={})
    assert getattr(settings, attr) == (tmp_path / "data" / "x.sqlite").resolve()


def test_the_users_settings_file_is_read_first_and_may_choose_hosts(tmp_path):
    user = tmp_path / "user" / "citecheck.toml"
    user.parent.mkdir()
    user.write_text('model_url = "https://gpu.firm.example/v1"\nmodel_name = "m"\ndebounce_ms = 10\n')
    folder = tmp_path / "matter"
    folder.mkdir()
    (folder / "citecheck.toml").write_text('model_url = "https://evil.example/v1"\ndebounce_ms = 20\n')
    settings, used = load_settings(cwd=folder, environ={}, user_file=user)
    assert used == folder / "citecheck.toml"
    assert settings.model_url == "https://gpu.firm.example/v1"  # the folder could not move it
    assert settings.debounce_ms == 20  # but may set what is not a host, key or file
    settings, _ = load_settings(cwd=folder, environ={"CITECHECK_DEBOUNCE_MS": "30"}, user_file=user)
    assert settings.debounce_ms == 30


def test_the_default_user_settings_file_is_in_the_user_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert user_config_path() == tmp_path / "citecheck" / "citecheck.toml"
    user_config_path().parent.mkdir()
    user_config_path().write_text('cap_url = "https://mirror.firm.example/"\n')
    settings, _ = load_settings(cwd=tmp_path, environ={})
    assert settings.cap_url == "https://mirror.firm.example/"
    assert load_user_settings({}).cap_url == "https://mirror.firm.example/"


@pytest.mark.parametrize(
    "key", ["model_api_key", "modelApiKey", "courtlistener_token", "token", "serve_token"]
)
def test_no_settings_file_carries_a_secret(tmp_path, caplog, key):
    cfg = tmp_path / "mine.toml"
    cfg.write_text(f'{key} = "stolen-value"\n')
    settings, _ = load_settings(config_file=cfg, environ={}, user_file=cfg)
    assert "stolen-value" not in repr(
        (settings.model_api_key, settings.courtlistener_token, settings.serve_token)
    )
    assert any("is a secret" in r.message for r in caplog.records)
    assert all("stolen-value" not in r.message for r in caplog.records)


def test_pyproject_tool_table_is_used_only_when_present(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config_file(tmp_path) is None or find_config_file(tmp_path).parent != tmp_path
    (tmp_path / "pyproject.toml").write_text('[tool.citecheck]\nseverity = { misquote = "warning" }\n')
    settings, used = load_settings(cwd=tmp_path, environ={})
    assert used == tmp_path / "pyproject.toml"
    assert settings.severity_overrides == {"misquote": Severity.WARNING}


def test_environment_beats_file_and_flags_beat_environment(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[citecheck]\ncorpus = "/from/file.sqlite"\nhttp_timeout_s = 5\n')
    env = {"CITECHECK_CORPUS_PATH": "/from/env.sqlite", "CITECHECK_HTTP_TIMEOUT_S": "7"}
    settings, _ = load_settings(config_file=cfg, environ=env)
    assert settings.corpus_path == Path("/from/env.sqlite") and settings.http_timeout_s == 7.0
    settings, _ = load_settings(config_file=cfg, environ=env, overrides={"corpus": "/from/flag.sqlite"})
    assert settings.corpus_path == Path("/from/flag.sqlite")
    settings, _ = load_settings(environ={"CITECHECK_CONFIG": str(cfg)}, cwd=tmp_path)
    assert settings.corpus_path == Path("/from/file.sqlite")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("corpus = [unclosed", "is not valid TOML"),
        ('checks = ["no-such-check"]', "unknown finding kind"),
        ("citecheck = 3", None),  # a scalar named citecheck is just an unknown key: ignored
    ],
)
def test_bad_config_files_are_config_errors(tmp_path, content, message):
    cfg = tmp_path / "citecheck.toml"
    cfg.write_text(content)
    if message is None:
        load_settings(config_file=cfg, environ={})
        return
    with pytest.raises(ConfigError, match=message):
        load_settings(config_file=cfg, environ={})


def test_missing_explicit_config_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        read_config_file(tmp_path / "nope.toml")


def test_a_folder_may_make_what_leaves_the_machine_only_stricter(tmp_path, caplog):
    """Issue 35: ``offline``, ``holdings``, ``cap_fetch``, ``name_search_online`` and the CourtListener
    allowances decide what leaves the machine; the folder's file may tighten them, never loosen what the
    user's own settings chose — refused with a warning that names the key."""
    user = tmp_path / "user" / "citecheck.toml"
    user.parent.mkdir()
    user.write_text(
        "offline = true\nholdings = false\ncap_fetch = false\nname_search_online = false\n"
        'courtlistener_rates = "2/min"\n'
    )
    folder = tmp_path / "matter"
    folder.mkdir()
    (folder / "citecheck.toml").write_text(
        'offline = false\nholdings = true\ncapFetch = true\nname_search_online = true\ncourtlistener_rates = "50/min"\n'
        "debounce_ms = 20\n"
    )
    settings, _ = load_settings(cwd=folder, environ={}, user_file=user)
    assert settings.offline is True and settings.holdings is False and settings.cap_fetch is False
    assert settings.name_search_online is False and settings.courtlistener_rates == "2/min"
    assert settings.debounce_ms == 20  # what sends nothing is the folder's to choose
    warned = " ".join(r.message for r in caplog.records)
    for shown in ("offline = false", "holdings = true", 'cap_fetch ("capFetch") = true', "name_search_online = true",
                  'courtlistener_rates = "50/min"'):  # fmt: skip
        assert shown in warned, (shown, warned)
    assert warned.count("may only") == 5
    # stricter is welcome: with nothing in the user's file, the folder may turn each one off
    user.write_text("")
    (folder / "citecheck.toml").write_text(
        "offline = true\nholdings = false\ncap_fetch = false\nname_search_online = false\n"
        'courtlistener_rates = "1/min,10/hour,20/day"\n'
    )
    caplog.clear()
    settings, _ = load_settings(cwd=folder, environ={}, user_file=user)
    assert settings.offline is True and settings.holdings is False and settings.cap_fetch is False
    assert settings.name_search_online is False and settings.courtlistener_rates == "1/min,10/hour,20/day"
    assert not [r for r in caplog.records if "may only" in r.message]
    # the user's own layers decide: the environment (after the folder) may loosen what the folder tightened
    settings, _ = load_settings(cwd=folder, environ={"CITECHECK_OFFLINE": "0"}, user_file=user)
    assert settings.offline is False


def test_the_lsp_workspace_layer_may_make_what_leaves_the_machine_only_stricter(caplog) -> None:
    from citecheck.lsp.server import CiteServer

    server = CiteServer()
    server.init_options = {"offline": True, "capFetch": False, "holdings": False}
    s = server.compute_settings({"offline": False, "capFetch": True, "holdings": True, "debounceMs": 7})
    assert (s.offline, s.cap_fetch, s.holdings, s.debounce_ms) == (True, False, False, 7)
    assert sum("may only" in r.message for r in caplog.records) == 3
    server.init_options = {}
    s = server.compute_settings({"offline": True, "capFetch": False})
    assert (s.offline, s.cap_fetch) == (True, False)
