"""The Parquet tables: parts while running, one merge at the end, reruns that skip and keep rows as they were."""

from __future__ import annotations

import hashlib

import pytest

pa = pytest.importorskip("pyarrow", reason="pyarrow is the [scale] extra (in [dev]); not installed here")
pq = pytest.importorskip(
    "pyarrow.parquet", reason="pyarrow is the [scale] extra (in [dev]); not installed here"
)

from citecheck.batch.rows import DocOutcome, failed  # noqa: E402
from citecheck.batch.store import Store, documents_path  # noqa: E402
from citecheck.errors import InputError  # noqa: E402


def _outcome(path: str, n: int) -> DocOutcome:
    rows = tuple(
        {
            "document": path,
            "kind": "cannot-verify",
            "title": "Could not verify",
            "severity": "info",
            "start": i,
            "end": i + 5,
            "line": 1,
            "column": i + 1,
            "end_line": 1,
            "end_column": i + 6,
            "page": None,
            "message": f"finding {i} of {path}",
            "citation_index": i,
            "citation": "1 U.S. 1",
            "evidence_source": None,
            "evidence": "{}",
            "fixes": "[]",
        }
        for i in range(n)
    )
    return DocOutcome(
        path=path, seconds=0.5, kind="text", characters=100, citations=n, findings=rows, counts={"info": n}
    )


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_documents_table_sits_beside_the_findings_table(tmp_path) -> None:
    assert documents_path(tmp_path / "x.parquet") == tmp_path / "x.documents.parquet"
    assert documents_path(tmp_path / "x") == tmp_path / "x.documents.parquet"


def test_a_run_writes_both_tables_and_a_rerun_that_checks_nothing_leaves_them_byte_for_byte(tmp_path) -> None:
    out = tmp_path / "x.parquet"
    with Store(out, part_docs=2) as store:
        for i in range(5):
            store.add(_outcome(f"/d/{i}.md", i))
        store.add(failed("/d/bad.pdf", 0.1, "not a PDF", "input"))
        assert store.merge()
    findings, docs = pq.read_table(out), pq.read_table(documents_path(out))
    assert findings.num_rows == 0 + 1 + 2 + 3 + 4
    assert docs.column("path").to_pylist() == [f"/d/{i}.md" for i in range(5)] + ["/d/bad.pdf"]
    assert docs.column("error").to_pylist()[-1] == "not a PDF"
    assert not (tmp_path / ".x.parquet.parts").exists()
    before = (_digest(out), _digest(documents_path(out)))
    with Store(out) as store:
        assert set(store.done()) == {f"/d/{i}.md" for i in range(5)} | {"/d/bad.pdf"}
        assert store.done()["/d/bad.pdf"] == "not a PDF"
        assert not store.merge()
    assert (_digest(out), _digest(documents_path(out))) == before


def test_new_documents_are_appended_and_earlier_rows_kept_as_they_were(tmp_path) -> None:
    out = tmp_path / "x.parquet"
    with Store(out) as store:
        store.add(_outcome("/d/a.md", 3))
        store.add(failed("/d/bad.pdf", 0.1, "timed out", "timeout"))
        store.merge()
    first = pq.read_table(out).to_pylist()
    with Store(out) as store:
        store.add(_outcome("/d/b.md", 2))
        store.add(_outcome("/d/bad.pdf", 1))  # a retried failure replaces its error row
        store.merge()
    rows = pq.read_table(out).to_pylist()
    assert rows[: len(first)] == first
    assert [r["document"] for r in rows[len(first) :]] == ["/d/b.md", "/d/b.md", "/d/bad.pdf"]
    docs = pq.read_table(documents_path(out)).to_pylist()
    assert [(d["path"], d["error"]) for d in docs] == [
        ("/d/a.md", None),
        ("/d/b.md", None),
        ("/d/bad.pdf", None),
    ]


def test_parts_left_by_an_interrupted_run_count_as_done_and_are_merged_once(tmp_path) -> None:
    out = tmp_path / "x.parquet"
    with Store(out, part_docs=1) as store:
        store.add(_outcome("/d/a.md", 2))  # flushed as a part; the run then "dies" before merging
    with Store(out) as store:
        assert list(store.done()) == ["/d/a.md"]
        store.merge()
        store.merge()  # nothing left: a second merge changes nothing
    assert pq.read_table(out).num_rows == 2
    assert pq.read_table(documents_path(out)).num_rows == 1


def test_an_out_that_is_not_a_batch_table_is_never_overwritten(tmp_path) -> None:
    out = tmp_path / "precious.parquet"
    pq.write_table(pa.table({"a": [1]}), out)
    with pytest.raises(InputError, match="not a citecheck batch findings table"):
        Store(out).__enter__()
    (tmp_path / "notes.parquet").write_text("my notes")
    with pytest.raises(InputError):
        Store(tmp_path / "notes.parquet").__enter__()


def test_two_runs_on_one_out_refuse_each_other(tmp_path) -> None:
    out = tmp_path / "x.parquet"
    with Store(out), pytest.raises(InputError, match="another citecheck batch run"):
        Store(out).__enter__()
