"""``citecheck eval make`` and ``citecheck eval`` through cli.main, on a corpus imported from ../shared/corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck_testing import shared_corpus_path


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    path = tmp_path_factory.mktemp("cli-eval") / "corpus.sqlite"
    corpus = Corpus(path)
    try:
        import_path(corpus, shared_corpus_path("cap-static"))
        import_path(corpus, shared_corpus_path("courtlistener-bulk"))
    finally:
        corpus.close()
    return path


def test_make_then_eval(corpus_file: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from citecheck.cli import main

    out = tmp_path / "set.jsonl"
    assert (
        main(["eval", "make", "--corpus", str(corpus_file), "--out", str(out), "--n", "40", "--seed", "2"])
        == 0
    )
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 40 and all("text" in r and "hallucinations" in r for r in rows)
    assert "wrote 40 excerpts" in capsys.readouterr().err
    assert main(["eval", str(out), "--corpus", str(corpus_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["examples"] == 40 and data["overall"]["recall"] >= 0.8 and data["overall"]["precision"] >= 0.9
    assert main(["eval", str(out), "--corpus", str(corpus_file), "--details", "3"]) == 0
    table = capsys.readouterr().out
    assert "overall" in table and "precision" in table


def test_bad_inputs_are_one_line_errors(corpus_file: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from citecheck.cli import main

    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    assert main(["eval", str(bad), "--corpus", str(corpus_file)]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:1: not JSON" in err and "Traceback" not in err
    assert main(["eval", str(tmp_path / "missing.jsonl"), "--corpus", str(corpus_file)]) == 2
    assert (
        main(["eval", "make", "--out", str(tmp_path / "x.jsonl"), "--corpus", str(tmp_path / "none.sqlite")])
        == 2
    )
    assert "no corpus" in capsys.readouterr().err


def test_make_and_score_fixes(corpus_file: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from citecheck.cli import main

    out = tmp_path / "fixes.jsonl"
    args = ["eval", "make", "--type", "fixes", "--corpus", str(corpus_file), "--out", str(out), "--n", "60"]
    assert main([*args, "--seed", "4"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 60 and all("fix" in r for r in rows)
    capsys.readouterr()
    assert main(["eval", str(out), "--corpus", str(corpus_file), "--json"]) == 0
    fixes = json.loads(capsys.readouterr().out)["fixes"]
    assert set(fixes["by_kind"]) >= {"invented-citation", "wrong-citation", "wrong-name"}
    assert main(["eval", str(out), "--corpus", str(corpus_file)]) == 0
    assert "wrong alone" in capsys.readouterr().out
    # the bar on a small held-out set: the right fix nearly always, never a wrong one alone or preferred
    for kind in ("invented-citation", "wrong-citation", "wrong-name"):
        c = fixes["by_kind"][kind]
        ok = c["right_offered_rate"] >= 0.9 and c["wrong_alone"] == 0 and c["preferred_wrong"] == 0
        assert ok, (kind, c)
    assert fixes["by_kind"]["unknown-case"]["offered"] == 0
