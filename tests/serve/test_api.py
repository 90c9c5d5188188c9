"""The API over the real engine: examples/brief.md as Word paragraphs, UTF-16 positions, footnotes,
incremental re-check, the shared ignore store and the HTML export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.serve.conftest import REPO, Served, brief_paragraphs

from citecheck.ignores.file import IgnoreStore
from citecheck_testing import shared_corpus_path

SAMPLE = REPO / "clients" / "word-addin" / "out" / "check-answer.sample.json"
FIXTURE = REPO / "clients" / "word-addin" / "test" / "fixtures" / "check-answer.json"


def check(served: Served, doc: str, paragraphs: list[Any]) -> dict[str, Any]:
    with served.client() as c:
        r = c.post(
            "/api/v1/check", json={"document": doc, "paragraphs": paragraphs}, headers=served.headers()
        )
    assert r.status_code == 200, r.text
    return r.json()


def utf16_slice(text: str, start: int, end: int) -> str:
    raw = text.encode("utf-16-le", "surrogatepass")
    return raw[start * 2 : end * 2].decode("utf-16-le", "surrogatepass")


def test_the_example_brief_in_word_paragraphs(served: Served) -> None:
    shared_corpus_path("cap-static")  # the real cases; skips here on a clone without ../shared
    paras = brief_paragraphs()
    answer = check(served, "brief", paras)
    file = answer["report"]["files"][0]
    statuses = {c["status"] for c in file["citations"]}
    assert "problem" in statuses and "verified" in statuses
    kinds = {f["kind"] for f in file["findings"]}
    assert {"fabricated-case", "misquote"} & kinds, kinds
    # every place points at exactly the text it names, in JavaScript (UTF-16) units
    for item in [*file["citations"], *file["findings"]]:
        w = item["word"]
        assert utf16_slice(paras[w["paragraph"]], w["start"], w["end"]) == w["text"]
        assert w["part"] == "body"
    savage = next(c for c in file["citations"] if c["cite"] == "100 A.2d 450")
    assert savage["word"]["text"].startswith("100 A.2d 450")
    # the summary counts what the lists hold
    s = answer["report"]["summary"]
    assert s["citations"] == len(file["citations"])
    assert s["findings"]["error"] == sum(1 for f in file["findings"] if f["severity"] == "error")
    SAMPLE.parent.mkdir(parents=True, exist_ok=True)
    # the pane's tests (clients/word-addin/test/sample.ts) read the paragraphs and the answer together
    SAMPLE.write_text(
        json.dumps({"paragraphs": paras, "answer": answer}, indent=1, ensure_ascii=False), encoding="utf-8"
    )


def test_astral_characters_and_footnotes_get_utf16_offsets(served: Served) -> None:
    body = "😀𝒮 “quoted” — see Savage v. Parks, 100 A.2d 450, 451 (D.C. Mun. App. 1953)."
    note = "🙂 Berry v. Keith, 100 A.2d 831 (D.C. Mun. App. 1953)."
    answer = check(served, "astral", [{"text": body, "part": "body"}, {"text": note, "part": "footnote"}])
    cites = answer["report"]["files"][0]["citations"]
    first = next(c for c in cites if c["text"].startswith("100 A.2d 450"))
    assert first["word"]["paragraph"] == 0
    cp = body.index("100 A.2d 450")
    assert first["span"]["start"] == cp  # the core's code points
    assert first["word"]["start"] == cp + 2  # 😀 and 𝒮 are two UTF-16 units each
    assert utf16_slice(body, first["word"]["start"], first["word"]["end"]) == first["word"]["text"]
    foot = next(c for c in cites if c["text"].startswith("100 A.2d 831"))
    assert foot["word"]["paragraph"] == 1 and foot["word"]["part"] == "footnote"
    assert foot["word"]["start"] == note.index("100 A.2d 831") + 1


def test_line_breaks_inside_a_paragraph_keep_offsets(served: Served) -> None:
    text = "First line\u000bSavage v. Parks, 100 A.2d 450 (D.C. Mun. App. 1953)\rmore"
    answer = check(served, "breaks", [text])
    c = answer["report"]["files"][0]["citations"][0]
    assert c["word"]["start"] == text.index("100 A.2d 450")


def test_one_edit_re_extracts_one_paragraph_and_gives_the_fresh_answer(served: Served) -> None:
    paras = brief_paragraphs()
    check(served, "incremental", paras)
    edited = list(paras)
    i = next(i for i, p in enumerate(paras) if "Berry v. Keith" in p)
    edited[i] = edited[i].replace("fiduciary trust", "fiduciary duty")
    again = check(served, "incremental", edited)
    assert 0 < again["changed_chars"] <= len(edited[i]) + 2
    fresh = check(served, "fresh-copy", edited)

    def strip(a: dict[str, Any]) -> Any:
        return [{k: v for k, v in f.items()} for f in a["report"]["files"][0]["findings"]]

    assert strip(again) == strip(fresh)
    assert again["report"]["files"][0]["citations"] == fresh["report"]["files"][0]["citations"]
    unchanged = check(served, "incremental", edited)
    assert unchanged["changed_chars"] == 0


def test_ignore_goes_to_the_store_the_editors_read(served: Served) -> None:
    paras = brief_paragraphs()
    before = check(served, "ignore", paras)
    finding = before["report"]["files"][0]["findings"][0]
    with served.client() as c:
        r = c.post(
            "/api/v1/ignore",
            json={"key": finding["ignore_key"], "scope": "finding"},
            headers=served.headers(),
        )
    assert r.status_code == 200, r.text
    store = IgnoreStore.for_root(served.root)  # what citecheck-lsp opens for this workspace
    assert len(store.keys) == 1
    after = check(served, "ignore", paras)
    assert after["ignored"] == 1
    keys = [f["ignore_key"] for f in after["report"]["files"][0]["findings"]]
    assert finding["ignore_key"] not in keys
    assert len(after["report"]["files"][0]["findings"]) == len(before["report"]["files"][0]["findings"]) - 1
    Path(store.path).unlink()  # leave the module's other tests an empty list


def test_export_is_the_html_report_of_the_last_check(served: Served) -> None:
    check(served, "export", brief_paragraphs())
    with served.client() as c:
        r = c.post("/api/v1/report", json={"document": "export"}, headers=served.headers())
        never = c.post("/api/v1/report", json={"document": "never-checked"}, headers=served.headers())
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "Savage v. Parks" in r.text and "<html" in r.text.lower()
    saved = Path(r.headers["x-citecheck-saved"])
    assert saved.parent == served.root / ".citecheck" / "reports"
    assert saved.read_text(encoding="utf-8") == r.text
    assert never.status_code == 400 and "check the document first" in never.json()["error"]


def test_bad_requests_get_a_clear_error(served: Served) -> None:
    with served.client() as c:
        cases = [
            (b"{not json", "not valid JSON"),
            (json.dumps({"document": "x", "paragraphs": "text"}).encode(), "'paragraphs' must be a list"),
            (json.dumps({"document": "../../etc", "paragraphs": []}).encode(), "'document' must be"),
            (
                json.dumps({"document": "x", "paragraphs": [{"text": "a", "part": "sidebar"}]}).encode(),
                "unknown part",
            ),
            (json.dumps({"document": "x", "paragraphs": [3]}).encode(), "has no text"),
            (b"[" * 50_000 + b"]" * 50_000, "nested too deeply"),  # was 500 RecursionError
            (b'{"a":' * 30_000 + b"1" + b"}" * 30_000, "nested too deeply"),
        ]
        for body, words in cases:
            r = c.post("/api/v1/check", content=body, headers=served.headers())
            assert r.status_code == 400, (body, r.text)
            assert words in r.json()["error"]
            assert "Traceback" not in r.text
        bad_ignore = c.post("/api/v1/ignore", json={"key": {"kind": 1}}, headers=served.headers())
        assert bad_ignore.status_code == 400
        # a kind no finding has, a citation of a megabyte, a quote hash key_for never makes: refused
        for key, words in [
            ({"kind": "no-such-kind", "citation": "100 a.2d 450"}, "unknown finding kind 'no-such-kind'"),
            ({"kind": "*", "citation": "100 a.2d 450", "quoteHash": "*"}, "unknown finding kind '*'"),
            ({"kind": "misquote", "citation": "1" * 1_000}, "longer than 500"),
            ({"kind": "misquote", "citation": "100 a.2d 450", "quoteHash": "<script>"}, "quoteHash"),
        ]:
            r = c.post("/api/v1/ignore", json={"key": key, "scope": "finding"}, headers=served.headers())
            assert r.status_code == 400 and words in r.json()["error"], (key, r.text)
    assert not (served.root / ".citecheck" / "ignore.json").exists()  # nothing was written


def test_the_committed_pane_fixture_has_the_shape_the_server_sends(served: Served) -> None:
    """clients/word-addin/test/fixtures/check-answer.json (what the pane's unit tests read when run
    alone) must have exactly the fields of a real answer, at every level."""
    shared_corpus_path("cap-static")  # the real cases; skips here on a clone without ../shared
    answer = check(served, "shape", brief_paragraphs())
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))["answer"]

    def shape(v: Any, path: str = "") -> set[str]:
        if isinstance(v, dict):
            out = set()
            for k, x in v.items():
                if path.endswith("evidence"):  # evidence holds only the fields a finding has
                    continue
                out |= {f"{path}.{k}"} | shape(x, f"{path}.{k}")
            return out
        if isinstance(v, list):
            return set().union(*(shape(x, f"{path}[]") for x in v)) if v else set()
        return set()

    assert shape(answer) == shape(fixture), (
        "the answer's fields changed: update clients/word-addin/src/findings.ts to match, then copy "
        "clients/word-addin/out/check-answer.sample.json (written by this module) over the fixture"
    )
