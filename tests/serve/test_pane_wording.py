"""The pane has a plain-language title for every finding kind the engine can raise."""

from __future__ import annotations

import re
from pathlib import Path

from citecheck.findings import Kind

VIEW = Path(__file__).resolve().parents[2] / "clients" / "word-addin" / "src" / "view.ts"


def test_every_kind_has_a_title_in_the_pane() -> None:
    source = VIEW.read_text(encoding="utf-8")
    block = source[source.index("export const KIND_TITLE") :]
    block = block[: block.index("};")]
    titled = set(re.findall(r"^\s*'?([a-z-]+)'?:\s*'", block, re.M))
    missing = {k.value for k in Kind} - titled
    assert not missing, f"add titles for {sorted(missing)} to KIND_TITLE in {VIEW}"
    assert not titled - {k.value for k in Kind}, "KIND_TITLE names kinds the engine no longer has"
