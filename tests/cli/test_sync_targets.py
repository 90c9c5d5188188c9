"""Issue 35 item 4: every path a sync writes is a file of the kind it writes, or a new path.

``corpus sync --index PATH`` renamed a new index over whatever PATH was — a corpus (called "an older
layout"), the cache, ``brief.docx``, and run as root ``/dev/null``. Now each is refused in one line that
says what the file is, before the bucket is asked anything, and the file is left as it was; the same for
``--from DIR``, ``corpus import DIR --full-dump`` and ``--statutes-path``. Only files these tests create:
the device is a node the test makes (root only), never a system file.
"""

from __future__ import annotations

import os
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from citecheck_testing.bulk_bucket import FakeBucket
from citecheck_testing.bulk_dump import closed_volume_cases, write_dump


def _corpus(p: Path) -> str:
    from citecheck.sources.corpus import Corpus

    Corpus(p).close()
    return "citecheck corpus"


def _cache(p: Path) -> str:
    import sqlite3

    db = sqlite3.connect(p)  # the cache's own tables (sources/cache.py)
    db.executescript(
        "CREATE TABLE lookups (key TEXT PRIMARY KEY, result TEXT NOT NULL, expires REAL NOT NULL);"
        "CREATE TABLE records (id TEXT PRIMARY KEY, record TEXT NOT NULL, stored REAL NOT NULL);"
    )
    db.close()
    return "citecheck cache"


def _docx(p: Path) -> str:
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", "<w:document>Privileged draft</w:document>")
    return "a zip file (a .docx?)"


def _other_sqlite(p: Path) -> str:
    import sqlite3

    db = sqlite3.connect(p)
    db.execute("CREATE TABLE notes (body TEXT)")
    db.commit()
    db.close()
    return "another SQLite database"


def _empty(p: Path) -> str:
    p.write_bytes(b"")
    return "an empty file"


def _text(p: Path) -> str:
    p.write_text("My brief. See 100 A.2d 36.\n")
    return "not a database"


def _folder(p: Path) -> str:
    p.mkdir()
    (p / "keep.txt").write_text("x")
    return "a folder"


def _fifo(p: Path) -> str:
    os.mkfifo(p)
    return "a pipe"


def _device(p: Path) -> str:
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root (this test makes its own, never uses /dev)")
    os.mknod(p, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # a null device of our own, in tmp_path
    return "a device"


def _dangling(p: Path) -> str:
    p.symlink_to(p.with_name("nowhere.sqlite"))
    return "a link to nothing"


TARGETS: dict[str, Callable[[Path], str]] = {
    "corpus": _corpus,
    "cache": _cache,
    "docx": _docx,
    "other-sqlite": _other_sqlite,
    "empty": _empty,
    "text": _text,
    "folder": _folder,
    "fifo": _fifo,
    "device": _device,
    "dangling-link": _dangling,
}


def _fingerprint(p: Path) -> tuple:
    st = os.lstat(p)
    data = p.read_bytes() if stat.S_ISREG(st.st_mode) else b""
    return (st.st_mode, st.st_size, st.st_mtime_ns, data)


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    folder = tmp_path / "dump"
    write_dump(folder, closed_volume_cases())
    return folder


@pytest.mark.parametrize("target", list(TARGETS))
def test_corpus_sync_index_refuses_what_is_not_an_index(run_cli, tmp_path, monkeypatch, dump, target) -> None:
    path = tmp_path / "not-an-index.sqlite"
    what = TARGETS[target](path)
    before = _fingerprint(path)
    with FakeBucket() as bucket:
        write_dump(tmp_path / "pub", closed_volume_cases(), compress=True)
        bucket.put_folder(tmp_path / "pub")
        monkeypatch.setenv("CITECHECK_BULK_URL", bucket.base_url)
        runs = {
            "sync": run_cli("corpus", "sync", "--index", str(path)),
            "sync --from": run_cli("corpus", "sync", "--from", str(dump), "--index", str(path)),
            "import --full-dump": run_cli("corpus", "import", str(dump), "--full-dump", "--index", str(path)),
        }
        assert bucket.requests == []  # refused before anything was asked of the bucket
    for how, r in runs.items():
        assert r.rc == 2, (how, r.out, r.err)
        line = r.err.strip()
        assert line.startswith(f"citecheck: error: --index {path} is") and "\n" not in line, (how, r.err)
        assert what in line and "not a citation index" in line, (how, line)
        assert "Traceback" not in r.err and "internal error" not in r.err
    assert _fingerprint(path) == before  # nothing replaced, nothing written
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(path.name + ".")]  # no .new, .lock


def test_a_link_to_an_index_builds_beside_the_real_file(run_cli, tmp_path, dump) -> None:
    real = tmp_path / "disk2" / "index.sqlite"
    real.parent.mkdir()
    assert run_cli("corpus", "sync", "--from", str(dump), "--index", str(real)).rc == 0
    link = tmp_path / "index.sqlite"
    link.symlink_to(real)
    again = run_cli("corpus", "sync", "--from", str(dump), "--index", str(link), "--rebuild")
    assert again.rc == 0, again.err
    assert link.is_symlink() and link.resolve() == real  # the link stays; the real file was rebuilt


@pytest.mark.parametrize("side", [".lock", ".new", ".next"])
def test_a_file_beside_the_index_that_is_not_a_file_is_refused(run_cli, tmp_path, dump, side) -> None:
    index = tmp_path / "index.sqlite"
    odd = tmp_path / f"index.sqlite{side}"
    victim = tmp_path / "victim.txt"
    victim.write_text("someone else's file\n")
    odd.symlink_to(victim)  # a write or an unlink through it would reach the victim
    r = run_cli("corpus", "sync", "--from", str(dump), "--index", str(index))
    assert r.rc == 2 and f"{odd} is a link" in r.err, r.err
    assert victim.read_text() == "someone else's file\n" and not index.exists()


@pytest.mark.parametrize(
    "target", ["corpus", "cache", "docx", "other-sqlite", "text", "folder", "fifo", "device"]
)
def test_statutes_path_refuses_what_is_not_a_statute_index(run_cli, tmp_path, target) -> None:
    path = tmp_path / "not-statutes.sqlite"
    what = TARGETS[target](path)
    before = _fingerprint(path)
    folder = tmp_path / "release"
    folder.mkdir()
    from citecheck_testing.statutes import FakeSection, release_zip, uslm_title

    usc = {
        "usc42.xml": uslm_title("42", [FakeSection(number="1983", heading="Civil action", paragraphs=("x",))])
    }
    (folder / "xml_uscAll@118-200.zip").write_bytes(release_zip(usc))
    r = run_cli("corpus", "sync", "--statutes", "--from", str(folder), "--statutes-path", str(path))
    assert r.rc == 2, (r.out, r.err)
    line = r.err.strip()
    assert "\n" not in line and what in line and "not a statute index" in line, line
    assert _fingerprint(path) == before
    # the same folder into a new path works (so this can fail)
    ok = run_cli(
        "corpus", "sync", "--statutes", "--from", str(folder), "--statutes-path", str(tmp_path / "s.sqlite")
    )
    assert ok.rc == 0, ok.err
