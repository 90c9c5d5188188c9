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


#: A case the corpus holds (its proposition goes to the model), one it lacks in a volume CAP publishes
#: (a CAP download, a CourtListener lookup), and one cited with a wrong year (a name search).
NETWORK_BRIEF = BRIEF + "See Brown v. Board of Education, 347 U.S. 483 (1954).\n"


@pytest.mark.parametrize(
    "user_said",
    [
        {"offline": "true"},
        {
            "holdings": "false",
            "cap_fetch": "false",
            "name_search_online": "false",
            "treatment_online": "false",
        },
    ],
    ids=["offline", "each-switch"],
)
def test_a_folder_cannot_undo_what_the_user_turned_off(
    run_cli, imported_corpus, recorder, tmp_path, monkeypatch, user_said
) -> None:
    """Issue 35: with ``offline = true`` (or ``holdings``/``cap_fetch``/``name_search_online``/``treatment_online``
    ``= false``) in
    the user's own settings file, a folder's citecheck.toml setting them back sent the citations and case
    names with the token, and the proposition with the model key, without a word. A folder may only make
    them stricter: three loopback recorders see nothing that was turned off (with only the switches off,
    citation lookups still go: the user allowed them), and a warning names each refused key."""
    from citecheck_testing.courtlistener import FakeCourtListener

    cap = FakeEndpoint()
    with FakeCourtListener(request_rates="", citation_rate="") as cl:
        monkeypatch.delenv("CITECHECK_CONFIG")
        monkeypatch.setenv("CITECHECK_COURTLISTENER_URL", cl.base_url)
        monkeypatch.setenv("CITECHECK_TOKEN_HOSTS", "127.0.0.1")
        monkeypatch.setenv("CITECHECK_COURTLISTENER_TOKEN", "cl-user-token-31337")
        monkeypatch.setenv("CITECHECK_MODEL_API_KEY", KEY)
        monkeypatch.setenv("CITECHECK_CAP_URL", cap.url)
        user = tmp_path / "xdg" / "citecheck" / "citecheck.toml"
        user.parent.mkdir(parents=True)
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
        mine = f'model_url = "{recorder.url}"\nmodel_name = "fake-judge"\nmodel_retries = 0\n'
        folder = tmp_path / "matter"
        folder.mkdir()
        (folder / "citecheck.toml").write_text(
            "offline = false\nholdings = true\ncap_fetch = true\nname_search_online = true\ncapFetch = true\n"
            "treatment_online = true\n"
        )
        (folder / "brief.md").write_text(NETWORK_BRIEF)
        monkeypatch.chdir(folder)
        try:
            user.write_text(mine + "".join(f"{k} = {v}\n" for k, v in user_said.items()))
            r = run_cli("check", "brief.md", "--format", "json")
            assert r.rc in (0, 1), r.err
            assert recorder.paths == [] and cap.paths == [] and cl.searches == [], (
                recorder.paths, cap.paths, cl.searches
            )  # fmt: skip
            if "offline" in user_said:
                assert cl.counts.requests == 0, cl.counts
            for key in user_said:
                assert f"{key} = " in r.err and "may only" in r.err and "it is ignored" in r.err, r.err
            assert KEY not in r.out + r.err and "cl-user-token-31337" not in r.out + r.err
            # the user's own file without the "off": the folder's file sends nothing new, and all three go
            user.write_text(mine)
            monkeypatch.setenv("CITECHECK_CACHE_PATH", str(tmp_path / "fresh-cache.sqlite"))  # no answer kept
            r = run_cli("check", "brief.md", "--format", "json")
            assert r.rc in (0, 1), r.err
            assert any(p.endswith("/chat/completions") for p in recorder.paths), (recorder.paths, r.err)
            assert cap.paths and cl.counts.requests > 0 and cl.searches, (cap.paths, cl.counts, r.err)
            assert "may only" not in r.err
        finally:
            cap.close()
