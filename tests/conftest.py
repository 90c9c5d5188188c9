"""Shared fixtures: where the real corpus lives, and a skip when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_testing import shared_corpus_path


@pytest.fixture
def shared_corpus() -> Path:
    return shared_corpus_path()


@pytest.fixture(autouse=True)
def _no_user_settings_file(tmp_path_factory, monkeypatch) -> None:
    """No test reads the settings file of whoever runs the tests (``config.user_config_path()``), nor
    the corpus, citation index or statute index in their data folder (the defaults of ``corpus_path``,
    ``index_path`` and ``statutes_path``): after ``citecheck corpus sync`` a language-server test that
    waited for a citation to be looked up online hung, because the user's index answered it."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg-config")))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
    # `corpus sync` refreshes the Congress.gov table of decisions overruled: never from a test (loopback port 9
    # refuses at once; a test of the refresh names its own loopback server)
    monkeypatch.setenv("CITECHECK_OVERRULED_URL", "http://127.0.0.1:9/decisions-overruled/")


@pytest.fixture(params=["default", "tiny"])
def limits(request):
    """The keystroke machinery's thresholds as shipped, and every one at its smallest (each fallback
    path runs): a test of incremental ≡ fresh that takes this fixture runs under both."""
    from citecheck.extract.incremental.thresholds import DEFAULT, TINY, using

    with using(DEFAULT if request.param == "default" else TINY) as chosen:
        yield chosen
