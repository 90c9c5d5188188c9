"""docs/settings.md lists every setting under its real names, and names nothing that is no setting.

The table is rendered from the settings table (``citecheck.config.docs``); after changing a setting,
``CITECHECK_REGEN_GOLDEN=1 python -m pytest -q tests/test_settings_docs.py`` rewrites it.
"""

from __future__ import annotations

import os
import re
from dataclasses import fields

from citecheck.config import SPECS, Settings, Who, unknown_env
from citecheck.config.docs import settings_table, with_table
from citecheck_testing import REPO_ROOT

PATH = REPO_ROOT / "docs" / "settings.md"
DOC = PATH.read_text(encoding="utf-8")


def test_the_table_in_the_docs_is_the_settings_table():
    if os.environ.get("CITECHECK_REGEN_GOLDEN") == "1":
        PATH.write_text(with_table(DOC), encoding="utf-8")
        return
    assert settings_table() in DOC, (
        "docs/settings.md differs from the settings table; run "
        "CITECHECK_REGEN_GOLDEN=1 python -m pytest -q tests/test_settings_docs.py"
    )


def test_every_setting_is_in_the_table_with_its_config_key_variable_and_who_may_set_it():
    rows = [ln for ln in DOC.splitlines() if ln.startswith("| `")]
    for f in fields(Settings):
        row = next((r for r in rows if r.startswith(f"| `{f.name}`")), None)
        assert row is not None, f"docs/settings.md has no row for {f.name}"
        assert f"`CITECHECK_{f.name.upper()}`" in row, f"{f.name}: the environment variable is missing"
        assert ("you only" in row) is (SPECS[f.name].who in (Who.USER, Who.SECRET)), (
            f"{f.name}: who may set it"
        )
        assert ("may only" in row) is (SPECS[f.name].who is Who.STRICTER), f"{f.name}: who may set it"


def test_every_variable_the_docs_name_is_a_real_one():
    named = set(re.findall(r"CITECHECK_[A-Z0-9_]*[A-Z0-9]", DOC))
    wrong = [w for w in unknown_env({n: "x" for n in named}) if "CITECHECK_HTTP_TIMOUT" not in w]
    assert not wrong, wrong


def test_settings_that_choose_where_things_go_are_the_users():
    """Every setting that names a host, a key or a file to read is marked user-only (docs/security.md)."""
    for name in ("model_url", "courtlistener_url", "cap_url", "token_hosts", "corpus_path", "cache_path"):
        assert SPECS[name].who is Who.USER, name
    for name in ("courtlistener_token", "model_api_key", "serve_token"):
        assert SPECS[name].who is Who.SECRET, name
    for name, spec in SPECS.items():
        if re.search(r"_(url|path|token|key|hosts)$", name):
            assert spec.who is not Who.FOLDER, f"{name} looks like a host, key or file: who may set it?"


def test_the_security_doc_names_every_setting_a_folder_may_not_set():
    """docs/security.md's list of what a folder may not choose is the table's, not an older one: it
    named the corpus and the cache but not the citation index or the statute index (issues 23, 27),
    which a folder may not choose either."""
    security = (REPO_ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    missing = [
        name for name, spec in SPECS.items() if spec.who is not Who.FOLDER and f"`{name}`" not in security
    ]
    assert not missing, f"docs/security.md does not name {missing}"


def test_the_vscode_extension_reads_the_user_only_settings_from_user_settings_alone():
    """clients/vscode/src/settings.ts ``USER_ONLY_KEYS`` (read from user settings, kept out of the
    workspace answer) and package.json's ``"scope": "machine"`` are the table's user-only editor keys."""
    import json

    source = (REPO_ROOT / "clients" / "vscode" / "src" / "settings.ts").read_text(encoding="utf-8")
    match = re.search(r"USER_ONLY_KEYS = \[([^\]]*)\]", source)
    assert match, "settings.ts has no USER_ONLY_KEYS"
    client = set(re.findall(r"'(\w+)'", match.group(1)))
    table = {s.editor for s in SPECS.values() if s.who is Who.USER and s.editor}
    assert client == table
    props = json.loads((REPO_ROOT / "clients" / "vscode" / "package.json").read_text())["contributes"][
        "configuration"
    ]["properties"]
    assert {k.removeprefix("citecheck.") for k, v in props.items() if v.get("scope") == "machine"} == table


def test_the_vscode_extension_launches_with_the_users_own_stricter_only_settings():
    """clients/vscode/src/settings.ts ``STRICTER_KEYS`` (read from user settings alone for the launch
    options, which the server treats as the user's) are the table's ``Who.STRICTER`` editor keys the
    extension contributes: one missing there would let ``.vscode/settings.json`` loosen it (issue 35)."""
    import json

    source = (REPO_ROOT / "clients" / "vscode" / "src" / "settings.ts").read_text(encoding="utf-8")
    match = re.search(r"STRICTER_KEYS = \[([^\]]*)\]", source)
    assert match, "settings.ts has no STRICTER_KEYS"
    client = set(re.findall(r"'(\w+)'", match.group(1)))
    props = json.loads((REPO_ROOT / "clients" / "vscode" / "package.json").read_text())["contributes"][
        "configuration"
    ]["properties"]
    contributed = {k.removeprefix("citecheck.") for k in props}
    table = {s.editor for s in SPECS.values() if s.who is Who.STRICTER and s.editor}
    assert client == table & contributed
