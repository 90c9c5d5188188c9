"""Settings layering: defaults → citecheck.toml / [tool.citecheck] → CITECHECK_* → flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.config.files import find_config_file, load_settings, read_config_file
from citecheck.errors import ConfigError
from citecheck.findings import Severity


def test_citecheck_toml_is_found_upwards_and_relative_paths_resolve_against_it(tmp_path):
    (tmp_path / "citecheck.toml").write_text('corpus = "data/corpus.sqlite"\noffline = true\n')
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    settings, used = load_settings(cwd=deep, environ={})
    assert used == tmp_path / "citecheck.toml"
    assert settings.corpus_path == (tmp_path / "data" / "corpus.sqlite").resolve()
    assert settings.offline is True


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
        ('checks = ["no-such-check"]', "unknown check"),
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
