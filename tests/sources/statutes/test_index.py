"""The statute index: covers, lookups (status, ranges, neighbours, history), text, titles, bad files."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path
from typing import NamedTuple

import pytest

from citecheck.errors import CorpusError, SchemaChanged
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.records import LookupOutcome, SectionStatus
from citecheck.sources.statutes.uslm import parse_uslm
from citecheck_testing.statutes import FakeSection, uslm_title

from .conftest import S1983


class Key(NamedTuple):
    code: str
    title: str
    section: str


def test_covers_only_synced_titles(index_file: Path) -> None:
    with StatuteIndex(index_file, readonly=True) as idx:
        assert idx.covers("usc", "42") and idx.covers("cfr", "17")
        assert not idx.covers("usc", "18") and not idx.covers("cfr", "42")
        answer = idx.lookup(Key("usc", "18", "1001"))
        assert answer.outcome is LookupOutcome.NOT_COVERED and "18 U.S.C." in answer.reason


def test_found_with_heading_text_and_url(index_file: Path) -> None:
    with StatuteIndex(index_file, readonly=True) as idx:
        answer = idx.lookup(Key("usc", "42", "1983"))
        rec = answer.record
        assert answer.outcome is LookupOutcome.FOUND and rec is not None
        assert rec.heading == "Civil action for deprivation of rights"
        assert rec.status is SectionStatus.CURRENT and rec.edition == "119-36"
        assert rec.citation == "42 U.S.C. § 1983" and "title42-section1983" in (rec.url or "")
        assert idx.text(rec) == S1983


@pytest.mark.parametrize("written", ["2000e-2", "2000e–2", "2000E-2"])
def test_section_numbers_are_compared_normalised(index_file: Path, written: str) -> None:
    with StatuteIndex(index_file, readonly=True) as idx:
        assert idx.lookup(Key("usc", "42", written)).outcome is LookupOutcome.FOUND


def test_not_found_names_the_neighbouring_sections(index_file: Path) -> None:
    with StatuteIndex(index_file, readonly=True) as idx:
        answer = idx.lookup(Key("usc", "42", "1983a"))
        assert answer.outcome is LookupOutcome.NOT_FOUND
        assert [r.section for r in answer.neighbours] == ["1982", "1983", "1984", "2000e-2"]


def test_a_section_inside_a_repealed_range_is_found_repealed(index_file: Path) -> None:
    with StatuteIndex(index_file, readonly=True) as idx:
        answer = idx.lookup(Key("usc", "42", "2405"))
        assert answer.outcome is LookupOutcome.FOUND and answer.record is not None
        assert (
            answer.record.status is SectionStatus.REPEALED
            and answer.record.citation == "42 U.S.C. §§ 2401–2408"
        )
        assert idx.lookup(Key("usc", "42", "2409")).outcome is LookupOutcome.NOT_FOUND


def test_transferred_says_where_it_went(index_file: Path) -> None:
    with StatuteIndex(index_file, readonly=True) as idx:
        rec = idx.lookup(Key("usc", "42", "1981a")).record
        assert rec is not None and rec.status is SectionStatus.TRANSFERRED
        assert rec.moved_to == "42 U.S.C. § 2000e-16a"


def test_cfr_removed_section_is_known_and_dated(index_file: Path) -> None:
    with StatuteIndex(index_file, readonly=True) as idx:
        rec = idx.lookup(Key("cfr", "17", "240.10b-7")).record
        assert rec is not None and rec.status is SectionStatus.REMOVED
        then = idx.lookup(Key("cfr", "17", "240.10b-7"), as_of="2019-05-01").record
        assert then is not None and then.status is SectionStatus.CURRENT  # in force at the brief's date
        assert idx.history(Key("cfr", "17", "240.10b-7")) == (("2017-01-03", False), ("2021-03-15", True))
        rec = idx.lookup(Key("cfr", "17", "240.10b-5")).record
        assert rec is not None and rec.amended == "2020-06-01"
        assert idx.lookup(Key("cfr", "17", "240.10b-8")).outcome is LookupOutcome.NOT_FOUND


def test_a_resync_replaces_the_title_whole(index_file: Path) -> None:
    data = uslm_title(
        "42", [FakeSection(number="1983", heading="New heading", paragraphs=("x",))], edition="119-1"
    )
    with StatuteIndex(index_file) as idx:
        title, sections = parse_uslm(io.BytesIO(data))
        assert idx.replace_title(title, sections, source="test") == 1
        assert idx.lookup(Key("usc", "42", "1982")).outcome is LookupOutcome.NOT_FOUND
        assert idx.lookup(Key("usc", "42", "1983")).edition == "119-1"
        assert idx.titles("usc")[0].sections == 1


def test_a_parse_error_half_way_keeps_the_old_title(index_file: Path, usc42: bytes) -> None:
    with StatuteIndex(index_file) as idx:
        title, sections = parse_uslm(io.BytesIO(usc42[: len(usc42) * 2 // 3]))
        with pytest.raises(SchemaChanged):
            idx.replace_title(title, sections, source="test")
        assert idx.lookup(Key("usc", "42", "1983")).outcome is LookupOutcome.FOUND
        assert idx.titles("usc")[0].sections == 9  # as before the failed sync


def test_another_database_or_a_newer_schema_is_refused(tmp_path: Path, index_file: Path) -> None:
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE cases(id)").connection.commit()
    with pytest.raises(CorpusError, match="not a citecheck statute index"):
        StatuteIndex(other)
    with sqlite3.connect(index_file) as db:
        db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    with pytest.raises(CorpusError, match="newer citecheck"):
        StatuteIndex(index_file, readonly=True)
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CorpusError, match="cannot use the statute index"):
        StatuteIndex(garbage, readonly=True)
    with pytest.raises(CorpusError, match="corpus sync --statutes"):
        StatuteIndex(tmp_path / "missing.sqlite", readonly=True)


def test_a_section_number_with_parentheses_makes_not_found_uncertain(tmp_path: Path) -> None:
    from citecheck.sources.statutes.ecfr import parse_ecfr
    from citecheck_testing.statutes import ecfr_title

    data = ecfr_title(
        "26",
        {"1": [FakeSection(number="1.401(a)(9)-9", heading="Life expectancy tables.", paragraphs=("x",))]},
    )
    with StatuteIndex(tmp_path / "s.sqlite") as idx:
        title, sections = parse_ecfr(io.BytesIO(data))
        idx.replace_title(title, sections, source="test")
        assert idx.lookup(Key("cfr", "26", "1.401(a)(9)-9")).outcome is LookupOutcome.FOUND
        answer = idx.lookup(Key("cfr", "26", "1.401"))
        assert answer.outcome is LookupOutcome.NOT_FOUND
        assert [r.section for r in answer.similar] == ["1.401(a)(9)-9"]


def test_texts_share_compressed_blocks_and_read_back_whole(tmp_path: Path) -> None:
    from citecheck_testing.statutes import synthetic_sections

    sections = list(synthetic_sections("7", 400, words=300))
    with StatuteIndex(tmp_path / "s.sqlite") as idx:
        title, parsed = parse_uslm(io.BytesIO(uslm_title("7", sections)))
        idx.replace_title(title, parsed, source="test")
        blocks = idx._db.execute("SELECT COUNT(*) FROM blocks").fetchone()[0]
        assert 1 < blocks < 100
        for s in sections[::37]:
            rec = idx.lookup(Key("usc", "7", s.number)).record
            assert rec is not None
            text = idx.text(rec)
            assert (text == "") == (not s.paragraphs)
            if s.paragraphs:
                assert s.paragraphs[-1] in text


def test_a_title_less_key_is_not_covered(index_file: Path) -> None:
    with StatuteIndex(index_file, readonly=True) as idx:
        assert idx.lookup(Key("Fla. Stat.", None, "768.28")).outcome is LookupOutcome.NOT_COVERED  # type: ignore[arg-type]


def test_an_index_of_an_older_schema_must_be_rebuilt(index_file: Path) -> None:
    with sqlite3.connect(index_file) as db:
        db.execute("UPDATE meta SET value='1' WHERE key='schema'")
    with pytest.raises(CorpusError, match="older citecheck"):
        StatuteIndex(index_file, readonly=True)
    with StatuteIndex(index_file) as idx:  # a sync starts it again
        assert idx.titles() == []
