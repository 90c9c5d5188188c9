"""docs/settings.md lists every setting under its real names, and names nothing that is no setting."""

from __future__ import annotations

import re
from dataclasses import fields

from citecheck.config import Settings, unknown_env
from citecheck_testing import REPO_ROOT

DOC = (REPO_ROOT / "docs" / "settings.md").read_text(encoding="utf-8")


def test_every_setting_is_in_the_table_with_its_config_key_and_variable():
    rows = [ln for ln in DOC.splitlines() if ln.startswith("| `")]
    for f in fields(Settings):
        row = next((r for r in rows if r.startswith(f"| `{f.name}`")), None)
        assert row is not None, f"docs/settings.md has no row for {f.name}"
        assert f"`CITECHECK_{f.name.upper()}`" in row, f"{f.name}: the environment variable is missing"


def test_every_variable_the_docs_name_is_a_real_one():
    named = set(re.findall(r"CITECHECK_[A-Z0-9_]*[A-Z0-9]", DOC))
    wrong = [w for w in unknown_env({n: "x" for n in named}) if "CITECHECK_HTTP_TIMOUT" not in w]
    assert not wrong, wrong
