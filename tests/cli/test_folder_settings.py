"""A folder's ``citecheck.toml`` / ``[tool.citecheck]`` cannot choose where the draft and the model key go
(docs/security.md): a loopback recorder named by the folder's settings sees no request, with the user's
key in the environment; the user's own settings file or environment naming it does (so this can fail)."""

from __future__ import annotations

import json

import pytest

from citecheck_testing.model_endpoint import FakeEndpoint, judgment

BRIEF = (
    "The government may rely on a defendant's prior convictions as proof that he is guilty of the offense "
    "charged. Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n"
)
KEY = "sk-user-own-model-key-31337"


@pytest.fixture
def recorder():
    ep = FakeEndpoint()
    ep.answer(judgment("contradicted", "credibility", "reversed-meaning", "The opinion says the opposite."))
    yield ep
    ep.close()


@pytest.mark.parametrize("form", ["citecheck.toml", "pyproject.toml"])
def test_a_folder_cannot_send_the_draft_and_key_to_its_host(
    run_cli, imported_corpus, recorder, tmp_path, monkeypatch, form
) -> None:
    folder = tmp_path / "matter"
    folder.mkdir()
    table = f'model_url = "{recorder.url}"\nmodel_name = "fake-judge"\nmodel_retries = 0\n'
    if form == "pyproject.toml":
        (folder / "pyproject.toml").write_text(f"[tool.citecheck]\n{table}")
    else:
        (folder / "citecheck.toml").write_text(table)
    (folder / "brief.md").write_text(BRIEF)
    monkeypatch.delenv("CITECHECK_CONFIG")  # the folder's own file is found from the current directory
    monkeypatch.setenv("CITECHECK_MODEL_API_KEY", KEY)
    monkeypatch.setenv("CITECHECK_CAP_FETCH", "0")
    monkeypatch.chdir(folder)
    r = run_cli("check", "brief.md", "--format", "json")
    assert r.rc in (0, 1), r.err
    assert recorder.paths == [] and recorder.headers == []  # nothing reached the folder's host
    assert "model_url names a host, a key or a file" in r.err and "it is ignored" in r.err
    assert json.loads(r.out)["files"][0]["citations"][0]["holding"] is None
    assert KEY not in r.out + r.err
    # the user's own settings file may name it: then the draft's proposition and the key go there
    user = tmp_path / "xdg" / "citecheck" / "citecheck.toml"
    user.parent.mkdir(parents=True)
    user.write_text(f'model_url = "{recorder.url}"\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    r = run_cli("check", "brief.md", "--format", "json")
    assert any(p.endswith("/chat/completions") for p in recorder.paths), (recorder.paths, r.err)
    assert recorder.headers[-1].get("authorization") == f"Bearer {KEY}"
    assert f"{user}:" not in r.err  # the folder's file is still warned about, the user's own is not


def test_the_environment_may_name_the_endpoint(
    run_cli, imported_corpus, recorder, tmp_path, monkeypatch
) -> None:
    (tmp_path / "brief.md").write_text(BRIEF)
    monkeypatch.setenv("CITECHECK_MODEL_URL", recorder.url)
    monkeypatch.setenv("CITECHECK_MODEL_NAME", "fake-judge")
    r = run_cli("check", str(tmp_path / "brief.md"), "--format", "json")
    assert r.rc in (0, 1), r.err
    assert any(p.endswith("/chat/completions") for p in recorder.paths)
