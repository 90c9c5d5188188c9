"""The model settings: off until configured, validated, and the API key never from a settings file."""

from __future__ import annotations

import pytest

from citecheck.config import Settings, settings_from_env, settings_from_mapping
from citecheck.config.files import load_settings
from citecheck.errors import ConfigError


def test_off_until_url_and_name_are_set() -> None:
    assert not Settings().holdings_enabled()
    assert not settings_from_mapping(
        {"modelUrl": "http://127.0.0.1:8000/v1"}, user_level=True
    ).holdings_enabled()
    on = settings_from_mapping({"modelUrl": "http://127.0.0.1:8000/v1", "modelName": "m"}, user_level=True)
    assert on.holdings_enabled()
    assert not settings_from_mapping({"holdings": False}, on).holdings_enabled()


def test_env_names() -> None:
    s = settings_from_env(
        {
            "CITECHECK_MODEL_URL": "https://gpu/v1",
            "CITECHECK_MODEL_NAME": "q",
            "CITECHECK_MODEL_API_KEY": "sekrit-123",
            "CITECHECK_MODEL_CONCURRENCY": "16",
            "CITECHECK_MODEL_DEADLINE_S": "90",
            "CITECHECK_HOLDINGS": "0",
        }
    )
    assert (
        s.model_url,
        s.model_name,
        s.model_api_key,
        s.model_concurrency,
        s.model_deadline_s,
        s.holdings,
    ) == ("https://gpu/v1", "q", "sekrit-123", 16, 90.0, False)
    assert "sekrit-123" not in repr(s)


@pytest.mark.parametrize(
    "bad",
    [{"modelUrl": "file:///etc/passwd"}, {"modelConcurrency": 0}, {"modelTimeout": -1}, {"modelRetries": -2}],
)
def test_bad_values_are_config_errors(bad: dict) -> None:
    with pytest.raises(ConfigError):
        settings_from_mapping(bad, user_level=True)


def test_a_settings_file_cannot_carry_the_api_key(tmp_path) -> None:  # the user's own file (--config)
    cfg = tmp_path / "citecheck.toml"
    cfg.write_text('model_url = "https://gpu.example/v1"\nmodel_name = "m"\nmodel_api_key = "stolen"\n')
    s, _ = load_settings(config_file=cfg, environ={})
    assert s.model_url == "https://gpu.example/v1" and s.model_api_key is None
    s, _ = load_settings(config_file=cfg, environ={"CITECHECK_MODEL_API_KEY": "mine"})
    assert s.model_api_key == "mine"
