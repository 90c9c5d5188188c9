"""What a one-line ``citecheck check --offline`` imports: the pipeline, not the web server, the HTTP
client, the model client, the editor protocol, Ray, eyecite or the renderers it does not write (each
was a tenth of a second or more of a check's start; issue 40)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from citecheck.extract import tokenizer as tok
from citecheck.startup import tokenizer_cache

#: Modules a one-line offline check must not import, with what each would cost it.
NOT_IMPORTED = {
    "eyecite": "the tokenizer is read from its cache file",
    "httpx": "no network offline (httpx imports rich, click and pygments for its own CLI)",
    "uvicorn": "the Word backend's server",
    "starlette": "the Word backend",
    "pygls": "the language server",
    "lsprotocol": "the language server",
    "ray": "citecheck batch",
    "lxml": "the statute index builder",
    "multiprocessing": "only a document of a million characters is extracted on several processes",
    "citecheck.holdings.client": "the model endpoint's client (holdings off)",
    "citecheck.sources.index.lookup": "no citation index was built",
    "citecheck.sources.statutes.index": "no statute index was built",
    "citecheck.report.html": "the text report was asked for",
    "citecheck.report.sarif": "the text report was asked for",
    "citecheck.cli.serve": "another command",
    "citecheck.cli.corpus": "another command",
}


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_one_line_check_imports_only_what_it_uses(tmp_path, fmt) -> None:
    cache = tmp_path / "cache" / "citecheck"
    cache.mkdir(parents=True)
    key = tokenizer_cache.installed_key()
    (cache / tokenizer_cache.default_path().name).write_bytes(tok.build_table(key).to_bytes())
    doc = tmp_path / "one.txt"
    doc.write_text("See Roe v. Wade, 410 U.S. 113, 120 (1973).\n", encoding="utf-8")
    env = {
        **os.environ,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    probe = (
        "import sys, json\n"
        "from citecheck.cli import main\n"
        f"code = main(['check', '--offline', '--format', {fmt!r}, sys.argv[1]])\n"
        "print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(doc)], env=env, capture_output=True, text=True, timeout=300
    )
    code, modules = json.loads(out.stderr.strip().splitlines()[-1])
    assert code == 0, out.stderr
    assert "410 U.S. 113" in out.stdout
    loaded = set(modules)
    wrong = {name: why for name, why in NOT_IMPORTED.items() if name in loaded}
    assert not wrong, wrong
    assert "citecheck.pipeline" in loaded  # it did check
