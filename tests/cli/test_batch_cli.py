"""``citecheck batch`` on a real local Ray instance (2 CPUs, started and stopped by each run).

Every run's findings are compared, document by document and field by field, with what
``citecheck check --format json`` reports for the same files with the same settings.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from citecheck_testing import REPO_ROOT, shared_corpus_path
from citecheck_testing.batch import differences, findings_of_batch, findings_of_check


def test_without_ray_batch_says_how_to_install_it_in_one_line(run_cli, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError, as where it is absent
    result = run_cli("batch", str(REPO_ROOT / "examples"), "--out", str(tmp_path / "x.parquet"))
    assert result.rc == 2
    assert (
        result.err
        == 'citecheck: error: citecheck batch needs Ray and pyarrow: pip install "citecheck-legal[scale]"\n'
    )
    assert not (tmp_path / "x.parquet").exists()


pq = pytest.importorskip(
    "pyarrow.parquet", reason="pyarrow is the [scale] extra (in [dev]); not installed here"
)
pytest.importorskip("ray", reason="Ray is the [scale] extra (in [dev]); not installed here")


@pytest.fixture
def local_only(monkeypatch) -> None:
    """The settings a batch checks with (it never downloads CAP volumes), for the check it is compared with."""
    monkeypatch.setenv("CITECHECK_CAP_FETCH", "false")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _documents(out: Path) -> dict[str, dict]:
    from citecheck.batch.store import documents_path

    return {d["path"]: d for d in pq.read_table(documents_path(out)).to_pylist()}


def _check_json(run_cli, *files: Path) -> dict:
    result = run_cli("check", "--format", "json", "--fail-on", "never", *map(str, files))
    return json.loads(result.out)


def _filings(folder: Path) -> list[Path]:
    """Real documents: the example brief (.md and .docx) and four real opinions of 100 A.2d as text."""
    folder.mkdir()
    (folder / "sub").mkdir()
    shutil.copy(REPO_ROOT / "examples" / "brief.md", folder / "brief.md")
    shutil.copy(REPO_ROOT / "examples" / "brief.docx", folder / "sub" / "brief.docx")
    cases = sorted(shared_corpus_path("cap-static", "a2d", "100", "cases").glob("*.json"))[:4]
    for i, case in enumerate(cases):
        text = "\n\n".join(o["text"] for o in json.loads(case.read_text())["casebody"]["opinions"])
        (folder / ("sub" if i % 2 else ".") / f"{case.stem}.txt").write_text(text, encoding="utf-8")
    return sorted(p for p in folder.rglob("*") if p.is_file())


@pytest.mark.corpus
def test_batch_finds_what_check_finds_and_a_rerun_keeps_the_tables(
    run_cli, imported_corpus, local_only, tmp_path
) -> None:
    docs = tmp_path / "filings"
    good = _filings(docs)
    hostile = {
        docs / "scan.pdf": b"%PDF-1.7\n" + bytes(range(256)) * 40,  # a PDF header and garbage
        docs / "sub" / "locked.docx": b"PK\x03\x04 this is not a zip archive" * 10,
        docs / "blob.txt": b"\x00\x01\x02binary\x00" * 100,
    }
    for path, data in hostile.items():
        path.write_bytes(data)
    out = tmp_path / "out" / "screen.parquet"

    first = run_cli("batch", str(docs), "--out", str(out), "--workers", "2")
    assert first.rc == 1, first.err  # documents failed; each is one error row
    assert "Traceback" not in first.err
    rows = _documents(out)
    assert set(rows) == {str(p) for p in good} | {str(p) for p in hostile}
    for path in hostile:
        row = rows[str(path)]
        assert row["error_kind"] == "input" and row["error"], row
        assert row["findings"] == 0
    assert not [r for r in pq.read_table(out).to_pylist() if r["document"] in {str(p) for p in hostile}]

    report = _check_json(run_cli, *good, *hostile)
    assert {e["path"]: e["message"] for e in report["errors"]} == {
        str(p): rows[str(p)]["error"] for p in hostile
    }
    check = findings_of_check(report)
    batch = findings_of_batch(out)
    assert differences(check, batch) == []
    assert sum(map(len, batch.values())) > 20  # real findings, not two empty sides
    assert {"fabricated-case", "misquote"} <= {r[0] for rs in batch.values() for r in rs}
    assert rows[str(docs / "brief.md")]["errors"] >= 1

    # the same command again: nothing checked, both files byte for byte as they were
    before = (_digest(out), _digest(out.with_name("screen.documents.parquet")))
    again = run_cli("batch", str(docs), "--out", str(out), "--workers", "2")
    assert "9 already in screen.parquet (skipped), 0 to check" in again.err
    assert (_digest(out), _digest(out.with_name("screen.documents.parquet"))) == before

    # a new filing: checked, the earlier rows kept exactly
    old = pq.read_table(out).to_pylist()
    late = docs / "late.md"
    late.write_text(
        "Peyton v. District of Columbia, 100 A.2d 36, 40 (D.C. 1953); Smith v. Jones, 100 A.2d 999.\n"
    )
    third = run_cli("batch", str(docs), "--out", str(out), "--workers", "2")
    assert "1 to check" in third.err
    rows_now = pq.read_table(out).to_pylist()
    assert rows_now[: len(old)] == old
    assert (
        differences(
            findings_of_check(_check_json(run_cli, late)), {str(late): findings_of_batch(out)[str(late)]}
        )
        == []
    )


#: The slow document's size, and the seconds after which the tests stop it (timeout, or the kill).
_SLOW_CHARS = 24_000_000
_SLOW_AFTER_S = 8


def _slow_document(brief: str, size: int = _SLOW_CHARS) -> str:
    """The brief's paragraphs over and over, each made different (a number before it, other volumes).

    A copy of the same paragraphs is checked from the paragraph memo in a few seconds (CI once
    finished 6 M characters of them inside a 4 s timeout). Distinct paragraphs are checked at about
    1.5 s per million characters on this project's machine, quiet: ``_SLOW_CHARS`` of them take ~35 s,
    so the tests' limit of ``_SLOW_AFTER_S`` (8 s) is passed even on a machine four times faster, while
    a small document, checked in well under a second, keeps a wide margin on a machine loaded ten
    times over (a 3 s limit did not: a small document was timed out, and a small document's worker
    was killed, at load 16-20).
    """
    paragraphs = [p for p in brief.split("\n\n") if p.strip()]
    volume = re.compile(r"\b(\d{1,3}) (U\.S\.|F\.\dd|F\. Supp\.|S\. Ct\.)")
    out: list[str] = []
    total = 0
    i = 0
    while total < size:
        shift = i // len(paragraphs) % 500
        text = volume.sub(
            lambda m, k=shift: f"{int(m.group(1)) + k} {m.group(2)}", paragraphs[i % len(paragraphs)]
        )
        out.append(f"Point {i}. {text}")
        total += len(out[-1]) + 2
        i += 1
    return "\n\n".join(out)[:size]


def test_a_document_past_the_timeout_is_one_error_row_and_the_rest_goes_on(
    run_cli, local_only, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("CITECHECK_MAX_DOCUMENT_CHARS", str(_SLOW_CHARS + 1))
    docs = tmp_path / "filings"
    docs.mkdir()
    brief = (REPO_ROOT / "examples" / "brief.md").read_text(encoding="utf-8")
    (docs / "huge.md").write_text(_slow_document(brief), encoding="utf-8")
    for i in range(3):
        (docs / f"small-{i}.md").write_text(brief, encoding="utf-8")
    out = tmp_path / "x.parquet"
    limit = str(_SLOW_AFTER_S)
    result = run_cli("batch", str(docs), "--out", str(out), "--workers", "2", "--timeout", limit)
    assert result.rc == 1, result.err
    rows = _documents(out)
    huge = rows[str(docs / "huge.md")]
    assert (huge["error_kind"], huge["error"]) == ("timeout", f"not checked within {limit} s (timeout)")
    assert _SLOW_AFTER_S <= huge["seconds"] < _SLOW_AFTER_S + 30
    small = [rows[str(docs / f"small-{i}.md")] for i in range(3)]
    assert [r["error"] for r in small] == [None] * 3
    assert all(r["errors"] >= 1 for r in small)  # checked for real (the brief has errors)
    assert "1 timeout" in result.err


@pytest.mark.corpus
def test_holding_checks_of_all_workers_go_to_the_replicas_and_share_the_cache(
    run_cli, cli_home, local_only, tmp_path, monkeypatch
) -> None:
    from citecheck_testing.model_endpoint import FakeEndpoint, judgment

    from ..holdings.conftest import PEYTON_HOLDING

    cap = shared_corpus_path("cap-static")
    assert run_cli("corpus", "import", str(cap)).rc == 0
    monkeypatch.setenv("CITECHECK_MODEL_NAME", "fake-judge")
    docs = tmp_path / "filings"
    docs.mkdir()
    claims = [
        "The government may rely on a defendant's prior convictions as proof that he is guilty",
        "Prior convictions are proof of guilt of the offense charged",
        "A jury may treat earlier convictions as evidence that the defendant committed this crime",
        "Evidence of prior convictions goes to guilt, not merely to credibility",
    ]
    for i, claim in enumerate(claims):
        (docs / f"brief-{i}.md").write_text(
            f"{claim}. Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n"
        )
    replicas = [FakeEndpoint(), FakeEndpoint()]
    try:
        for ep in replicas:
            ep.answer_by(
                lambda body: judgment("contradicted", PEYTON_HOLDING, "reversed-meaning", "Opposite.")
            )
        urls = [a for ep in replicas for a in ("--model-url", ep.url)]
        first = run_cli("batch", str(docs), "--out", str(tmp_path / "a.parquet"), "--workers", "2", *urls)
        assert first.rc == 0, first.err
        sent = [len(ep.requests) for ep in replicas]
        assert all(n >= 1 for n in sent) and sum(sent) == len(claims), sent
        batch = findings_of_batch(tmp_path / "a.parquet")
        assert all(any(r[0] == "unsupported-holding" for r in rows) for rows in batch.values()), batch

        second = run_cli("batch", str(docs), "--out", str(tmp_path / "b.parquet"), "--workers", "2", *urls)
        assert second.rc == 0, second.err
        assert [len(ep.requests) for ep in replicas] == sent  # every judgment came from the shared cache
        assert differences(findings_of_batch(tmp_path / "b.parquet"), batch) == []

        monkeypatch.setenv("CITECHECK_MODEL_URL", replicas[0].url)
        check = findings_of_check(_check_json(run_cli, *sorted(docs.iterdir())))
        assert differences(check, batch) == []
    finally:
        for ep in replicas:
            ep.close()


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (Linux /proc): the local Ray instance this test process started."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def test_a_worker_that_dies_on_a_document_is_one_crashed_row_and_is_replaced(
    run_cli, local_only, tmp_path, monkeypatch
) -> None:
    """The worker checking a long document is killed (as the kernel's OOM killer would): that document is one
    ``crashed`` row, a new worker takes the documents queued behind it, the run finishes."""
    import os
    import signal
    import threading

    monkeypatch.setenv("CITECHECK_MAX_DOCUMENT_CHARS", str(_SLOW_CHARS + 1))
    docs = tmp_path / "filings"
    docs.mkdir()
    brief = (REPO_ROOT / "examples" / "brief.md").read_text(encoding="utf-8")
    (docs / "a-huge.md").write_text(_slow_document(brief), encoding="utf-8")
    for i in range(4):
        (docs / f"small-{i}.md").write_text(brief, encoding="utf-8")
    killed: list[int] = []
    stop = threading.Event()

    def killer() -> None:  # the worker whose Ray task title says it is checking, once it has run a while
        seen: dict[int, float] = {}
        while not stop.wait(0.2) and not killed:
            for pid in _descendants(os.getpid()):
                try:
                    title = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                if b"ray::_RayWorker.check" in title:
                    import time

                    first = seen.setdefault(pid, time.monotonic())
                    if time.monotonic() - first > _SLOW_AFTER_S:  # a small document is done long before
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                        return

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    try:
        result = run_cli("batch", str(docs), "--out", str(tmp_path / "x.parquet"), "--workers", "2")
    finally:
        stop.set()
        thread.join(timeout=10)
    assert killed, "no worker was seen checking the long document"
    assert result.rc == 1, result.err
    rows = _documents(tmp_path / "x.parquet")
    huge = rows[str(docs / "a-huge.md")]
    assert huge["error_kind"] == "crashed", huge
    assert "stopped unexpectedly" in huge["error"]
    assert [rows[str(docs / f"small-{i}.md")]["error"] for i in range(4)] == [None] * 4
    assert "1 crashed" in result.err
