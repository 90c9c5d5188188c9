"""eCFR titles (versioner and govinfo bulk XML) and the versioner's JSON → sections and history."""

from __future__ import annotations

import io

import pytest

from citecheck.errors import SchemaChanged
from citecheck.sources.statutes.ecfr import parse_ecfr, parse_titles, section_history
from citecheck.sources.statutes.records import SectionStatus
from citecheck_testing.statutes import ecfr_title, titles_json, versions_json

from .conftest import TITLE_17_CFR, VERSIONS_17


@pytest.mark.parametrize("bulk", [False, True])
def test_sections_of_both_xml_forms(bulk: bool) -> None:
    title, it = parse_ecfr(io.BytesIO(ecfr_title("17", TITLE_17_CFR, bulk=bulk)))
    secs = {s.section: s for s in it}
    assert title.title == "17" and title.heading.startswith("Title 17")
    assert set(secs) == {"240.10b-5", "240.10b-6", "240.10b-9"}
    s = secs["240.10b-5"]
    assert s.heading == "Employment of manipulative and deceptive devices"
    assert s.text.startswith("It shall be unlawful for any person")
    assert "64 FR" not in s.text  # the source citation is not the rule's text
    assert secs["240.10b-6"].status is SectionStatus.RESERVED
    if bulk:
        assert (
            title.edition == "2024-01-03"
        )  # govinfo's AMDDATE as an ISO date (compared with a brief's date)


def test_history_from_versions_json() -> None:
    hist = section_history(versions_json("17", VERSIONS_17))
    assert [e.date for e in hist["240.10b-5"]] == ["2017-01-03", "2020-06-01"]
    assert hist["240.10b-7"][-1].removed


def test_titles_json() -> None:
    (t,) = parse_titles(titles_json({"17": ("Commodity and Securities Exchanges", "2024-01-03")}))
    assert (t.number, t.up_to_date_as_of) == ("17", "2024-01-03")


@pytest.mark.parametrize(
    "data",
    [b"<html><body>Service unavailable</body></html>", b"<DIV1 N='3' TYPE='CHAPTER'/>", b"not xml"],
)
def test_a_changed_schema_is_a_clear_error(data: bytes) -> None:
    with pytest.raises(SchemaChanged, match=r"title-17\.xml"):
        _t, it = parse_ecfr(io.BytesIO(data), name="title-17.xml")
        list(it)


def test_a_title_with_no_sections_is_a_clear_error() -> None:
    data = (
        b'<DIV1 N="17" TYPE="TITLE"><HEAD>Title 17</HEAD>'
        b'<DIV5 N="1" TYPE="PART"><SECTION><SECTNO>1.1</SECTNO></SECTION></DIV5></DIV1>'
    )
    _t, it = parse_ecfr(io.BytesIO(data), name="title-17.xml")
    with pytest.raises(SchemaChanged, match="format may have changed"):
        list(it)


@pytest.mark.parametrize("data", [b"{}", b"[1,2]", b'{"titles": [{"name": "x"}]}', b"<html/>"])
def test_json_of_another_shape_is_a_clear_error(data: bytes) -> None:
    with pytest.raises(SchemaChanged):
        parse_titles(data)
    with pytest.raises(SchemaChanged):
        section_history(data)
