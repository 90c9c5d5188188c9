"""The statute index on real release files (issue 33; issue 35 item 1): the OLRC's ``usc09.xml``,
``usc18a.xml`` and ``usc50A.xml`` of release point 119-36 and govinfo's eCFR ``title-3.xml``, exactly as
published (``real/PROVENANCE.md``), through ``citecheck corpus sync --statutes --from`` and ``check``."""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Any

import pytest

from citecheck.cli import main
from citecheck.extract.models import StatuteKey
from citecheck.sources.statutes.ecfr import parse_ecfr
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.records import LookupOutcome, SectionStatus
from citecheck.sources.statutes.uslm import parse_uslm

REAL = Path(__file__).parent / "real"


def real(name: str) -> bytes:
    """A real release file, decompressed when it is kept compressed."""
    packed = REAL / f"{name}.xz"
    return lzma.decompress(packed.read_bytes()) if packed.exists() else (REAL / name).read_bytes()


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECHECK_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    monkeypatch.setenv("CITECHECK_CORPUS_PATH", str(tmp_path / "corpus.sqlite"))
    monkeypatch.setenv("CITECHECK_STATUTES_PATH", str(tmp_path / "statutes.sqlite"))
    monkeypatch.delenv("CITECHECK_COURTLISTENER_TOKEN", raising=False)


def _release(folder: Path, *, cfr_name: str = "title-3.xml") -> Path:
    folder.mkdir(exist_ok=True)
    for name in ("usc09.xml", "usc18a.xml", "usc50A.xml"):
        (folder / name).write_bytes(real(name))
    (folder / "ecfr").mkdir(exist_ok=True)
    (folder / "ecfr" / cfr_name).write_bytes(real("title-3.xml"))
    return folder


def _sync(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["corpus", "sync", "--statutes", "--from", str(folder)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture()
def index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> StatuteIndex:
    code, _out, err = _sync(_release(tmp_path / "release"), capsys)
    assert code == 0, err
    return StatuteIndex(tmp_path / "statutes.sqlite", readonly=True)


def test_title_9_is_read_whole() -> None:
    title, sections = _parse("usc09.xml")
    numbers = [s.section for s in sections]
    assert (title.title, title.edition, title.heading) == ("9", "119-36", "ARBITRATION")
    assert numbers[:3] == ["1", "2", "3"] and "16" in numbers and "208" in numbers and numbers[-1] == "402"
    assert len(numbers) == len(set(numbers)) == 33


def _parse(name: str) -> tuple[Any, list[Any]]:
    import io

    title, it = parse_uslm(io.BytesIO(real(name)), name=name)
    return title, list(it)


def test_the_eliminated_appendix_is_never_covered(
    index: StatuteIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``usc50A.xml`` is an "[ELIMINATED]" stub: 50a was covered with 0 sections and `50 U.S.C. App. § 2410`
    and `§ 511(2)(A)(ii)` (a real 2011 sentence) were fabricated-statute errors."""
    assert not index.covers("usc", "50a")
    for section in ("2410", "511"):
        answer = index.lookup(StatuteKey("usc", "50a", section))
        assert answer.outcome is LookupOutcome.NOT_COVERED
        assert "eliminated" in answer.reason and "119-36" in answer.reason
    (tmp_path / "brief.md").write_text(
        "Under 50 U.S.C. App. § 2410 and 50 U.S.C. App. § 511(2)(A)(ii), the claim was stayed.",
        encoding="utf-8",
    )
    main(["check", "brief.md", "--offline", "--format", "json"])
    findings = json.loads(capsys.readouterr().out)["files"][0]["findings"]
    assert [f["kind"] for f in findings] == ["statute-not-checked"] * 2
    assert all("eliminated" in f["message"] for f in findings)


def test_appendix_acts_are_kept_apart(index: StatuteIndex) -> None:
    """18a holds the Interstate Agreement on Detainers and CIPA, both numbered §§ 1–9: the first act's § 4
    won, so CIPA § 4 (`18 U.S.C. App. 3 § 4`) showed the Detainers Act's heading."""
    cipa = index.lookup(StatuteKey("usc", "18a", "4", act="3")).record
    iad = index.lookup(StatuteKey("usc", "18a", "4", act="2")).record
    assert cipa is not None and cipa.heading == "Discovery of classified information by defendants"
    assert (
        cipa.act_name == "Classified Information Procedures Act" and cipa.citation == "18 U.S.C. App. 3 § 4"
    )
    assert index.text(cipa).startswith(
        "The court, upon a sufficient showing, may authorize the United States"
    )
    assert iad is not None and iad.heading == "Definition of term “appropriate court”"
    either = index.lookup(StatuteKey("usc", "18a", "4")).record
    assert either is not None and either.ambiguous and len(either.alternatives) == 2
    assert index.text(either) == ""  # no one text to compare a quotation with
    repealed = index.lookup(StatuteKey("usc", "18a", "1202")).record
    assert (
        repealed is not None and repealed.status is SectionStatus.REPEALED and repealed.range_last == "1203"
    )
    assert index.lookup(StatuteKey("usc", "18a", "17", act="3")).outcome is LookupOutcome.NOT_FOUND


def test_real_appendix_citations_and_quotations_draw_no_error(
    index: StatuteIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    brief = (
        "Under 18 U.S.C. App. 3 § 4, “[t]he court, upon a sufficient showing, may authorize the United States to "
        "delete specified items of classified information from documents to be made available to the "
        "defendant through discovery.” The Detainers Act defines the term, 18 U.S.C. App. 2 § 4, and so "
        "does 18 U.S.C. App. § 4. Arbitration follows 9 U.S.C. §§ 1-16 and 9 U.S.C. §§ 1–16; the "
        "President's rules are 3 C.F.R. § 100.1 and 3 C.F.R. Part 100. But 18 U.S.C. App. 3 § 99 and "
        "9 U.S.C. § 17 do not exist."
    )
    (tmp_path / "brief.md").write_text(brief, encoding="utf-8")
    main(["check", "brief.md", "--offline", "--format", "json"])
    file = json.loads(capsys.readouterr().out)["files"][0]
    texts = {c["index"]: c["text"] for c in file["citations"]}
    found = [(texts[f["citation_index"]], f["kind"], f["severity"]) for f in file["findings"]]
    assert [f for f in found if f[0] not in ("18 U.S.C. App. 3 § 99", "9 U.S.C. § 17")] == []
    assert ("9 U.S.C. § 17", "fabricated-statute", "error") in found
    assert ("18 U.S.C. App. 3 § 99", "fabricated-statute", "error") in found
    verified = {c["text"]: c["status"] for c in file["citations"]}
    assert verified["18 U.S.C. App. 3 § 4"] == "verified" and verified["3 C.F.R. Part 100"] == "verified"


def test_a_cfr_title_is_its_own_number_not_its_volume(index: StatuteIndex) -> None:
    """govinfo's bulk file numbers its ``DIV1`` by volume: every title was stored as title 1."""
    [row] = index.titles("cfr")
    assert (row.title, row.edition, row.sections) == ("3", "2015-03-17", 27)
    rec = index.lookup(StatuteKey("cfr", "3", "100.1")).record
    assert rec is not None and rec.heading.startswith("Ethical conduct standards")
    assert index.lookup(StatuteKey("cfr", "1", "1.1")).outcome is LookupOutcome.NOT_COVERED
    part = index.lookup(StatuteKey("cfr", "3", "101", unit="part")).record
    assert part is not None and part.citation == "3 C.F.R. pt. 101"


def test_a_cfr_file_that_holds_another_title_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _sync(_release(tmp_path / "release", cfr_name="title-1.xml"), capsys)
    assert code == 1
    assert "refused title-1.xml" in err and "holds title 3, not title 1" in err
    assert "stored 2 U.S. Code titles" in out and "C.F.R." not in out.split("\n")[0]
    with StatuteIndex(tmp_path / "statutes.sqlite", readonly=True) as idx:
        assert idx.titles("cfr") == []


def test_parsing_the_real_cfr_file_reads_its_header() -> None:
    import io

    title, it = parse_ecfr(io.BytesIO(real("title-3.xml")), name="title-3.xml")
    assert len(list(it)) == 27 and title.title == "3" and title.heading.startswith("Title 3")
    assert {u.number for u in title.units if u.kind == "part"} == {"100", "101", "102", "103"}


def test_a_title_file_with_no_sections_never_replaces_the_good_copy(
    index: StatuteIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 35 item 1: a ``usc09.xml`` with its header and no ``<section>`` was stored as a covered title with
    0 sections over the good one, and the sync exited 0: every citation of title 9 became fabricated."""
    whole = real("usc09.xml")
    head = whole[: whole.index(b"<main>")]
    hollow = tmp_path / "hollow"
    hollow.mkdir()
    (hollow / "usc09.xml").write_bytes(head + b"<main><title identifier='/us/usc/t9'/></main></uscDoc>")
    code, _out, err = _sync(hollow, capsys)
    assert code == 1
    assert "refused usc09.xml: 9 U.S.C. has no <section> elements" in err and "was kept" in err
    with StatuteIndex(tmp_path / "statutes.sqlite", readonly=True) as idx:
        assert idx.covers("usc", "9")
        rec = idx.lookup(StatuteKey("usc", "9", "2")).record
        assert rec is not None and rec.heading.startswith("Validity, irrevocability, and enforcement")


def test_a_title_file_with_no_sections_is_never_covered_when_there_is_no_good_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = real("usc09.xml")
    folder = tmp_path / "hollow"
    folder.mkdir()
    (folder / "usc09.xml").write_bytes(whole[: whole.index(b"<main>")] + b"<main/></uscDoc>")
    code, _out, err = _sync(folder, capsys)
    assert code == 1 and "nothing was stored" in err
    with StatuteIndex(tmp_path / "statutes.sqlite", readonly=True) as idx:
        assert idx.titles("usc") == []
        assert idx.lookup(StatuteKey("usc", "9", "2")).outcome is LookupOutcome.NOT_COVERED


#: What a clone of a repository that keeps the release in Git LFS holds where ``usc42.xml`` should be (the
#: ``usarscotus/united-states-code`` snapshot has exactly this); it sorts before ``usc50A.xml``.
LFS_POINTER = (
    b"version https://git-lfs.github.com/spec/v1\n"
    b"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
    b"size 98765432\n"
)


def test_a_file_that_is_not_xml_is_refused_and_the_other_titles_are_built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Git LFS pointer in place of a title file stopped a ``--from`` build there: the titles sorted after
    it (50a here) were never built. It is refused like a title with no sections, and the rest is built."""
    folder = _release(tmp_path / "release")
    (folder / "usc42.xml").write_bytes(LFS_POINTER)
    code, _out, err = _sync(folder, capsys)
    assert code == 1
    assert "refused usc42.xml: not XML" in err
    with StatuteIndex(tmp_path / "statutes.sqlite", readonly=True) as idx:
        assert idx.covers("usc", "9") and not idx.covers("usc", "42")
        assert {t.title for t in idx.titles("usc")} >= {"9", "18a"}
        # 50a (after usc42.xml) was read too: recorded as eliminated, not checked
        assert idx.lookup(StatuteKey("usc", "50a", "2410")).outcome is LookupOutcome.NOT_COVERED


def test_a_title_cut_off_mid_file_keeps_the_copy_held(
    index: StatuteIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A truncated download of a title breaks off inside a section: the title is rolled back to the copy the
    index holds (not half stored), the sync says so and exits 1."""
    whole = real("usc09.xml")
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "usc09.xml").write_bytes(whole[: len(whole) // 2])
    code, _out, err = _sync(cut, capsys)
    assert code == 1 and "refused usc09.xml: broken XML" in err
    with StatuteIndex(tmp_path / "statutes.sqlite", readonly=True) as idx:
        full = _parse("usc09.xml")[0].sections
        assert idx.titles("usc")[0].sections == full
        rec = idx.lookup(StatuteKey("usc", "9", "16")).record
        assert rec is not None
