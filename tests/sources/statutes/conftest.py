"""Small U.S. Code and C.F.R. titles in the real formats (written here), and an index built from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.sources.statutes.ecfr import parse_ecfr, section_history
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.uslm import parse_uslm
from citecheck_testing.statutes import FakeSection, ecfr_title, uslm_title, versions_json

S1983 = (
    "Every person who, under color of any statute, ordinance, regulation, custom, or usage, of any State "
    "or Territory or the District of Columbia, subjects, or causes to be subjected, any citizen of the "
    "United States or other person within the jurisdiction thereof to the deprivation of any rights, "
    "privileges, or immunities secured by the Constitution and laws, shall be liable to the party injured "
    "in an action at law, suit in equity, or other proper proceeding for redress."
)

TITLE_42 = [
    FakeSection(
        number="1981",
        heading="Equal rights under the law",
        paragraphs=(
            "All persons within the jurisdiction of the United States shall have the same right in every State and Territory to make and enforce contracts.",
        ),
    ),
    FakeSection(
        number="1981a",
        heading="Transferred",
        status="transferred",
        note="Section 1981a was transferred to section 2000e–16a of this title.",
    ),
    FakeSection(
        number="1982",
        heading="Property rights of citizens",
        paragraphs=(
            "All citizens of the United States shall have the same right to inherit, purchase, lease, sell, hold, and convey real and personal property.",
        ),
    ),
    FakeSection(number="1983", heading="Civil action for deprivation of rights", paragraphs=(S1983,)),
    FakeSection(
        number="1984",
        heading="Repealed. Pub. L. 99–1, § 2, Jan. 1, 1985, 99 Stat. 1",
        status="repealed",
        status_attr=False,
    ),
    FakeSection(
        number="2000e–2",
        heading="Unlawful employment practices",
        paragraphs=(
            "It shall be an unlawful employment practice for an employer to fail or refuse to hire any individual.",
            "It shall be an unlawful employment practice for an employment agency to fail or refuse to refer for employment.",
        ),
    ),
    FakeSection(
        number="2401",
        heading="Repealed. Pub. L. 97–35, title V, § 529, Aug. 13, 1981, 95 Stat. 480",
        status="repealed",
        range_to="2408",
    ),
    FakeSection(number="3001", heading="Omitted", status="omitted"),
]

TITLE_17_CFR = {
    "240": [
        FakeSection(
            number="240.10b-5",
            heading="Employment of manipulative and deceptive devices.",
            paragraphs=(
                "It shall be unlawful for any person, directly or indirectly, by the use of any means or instrumentality of interstate commerce, (a) To employ any device, scheme, or artifice to defraud,",
            ),
        ),
        FakeSection(number="240.10b-6", heading="Reserved", status="reserved"),
        FakeSection(
            number="240.10b-9",
            heading="Prohibited representations in connection with certain offerings.",
            paragraphs=(
                "It shall constitute a manipulative or deceptive device for any person to represent that a security is being offered on an all-or-none basis.",
            ),
        ),
    ]
}

VERSIONS_17 = [
    ("240.10b-5", "240", "2017-01-03", False),
    ("240.10b-5", "240", "2020-06-01", False),
    ("240.10b-7", "240", "2017-01-03", False),
    ("240.10b-7", "240", "2021-03-15", True),  # removed since
    ("240.10b-9", "240", "2017-01-03", False),
]


@pytest.fixture()
def usc42() -> bytes:
    return uslm_title("42", TITLE_42, chapter_size=3)


@pytest.fixture()
def cfr17() -> bytes:
    return ecfr_title("17", TITLE_17_CFR)


@pytest.fixture()
def index_file(tmp_path: Path, usc42: bytes, cfr17: bytes) -> Path:
    path = tmp_path / "statutes.sqlite"
    (tmp_path / "usc42.xml").write_bytes(usc42)
    (tmp_path / "title-17.xml").write_bytes(cfr17)
    with StatuteIndex(path) as index:
        title, sections = parse_uslm(str(tmp_path / "usc42.xml"))
        index.replace_title(title, sections, source="test")
        title, sections = parse_ecfr(str(tmp_path / "title-17.xml"))
        index.replace_title(
            title, sections, source="test", history=section_history(versions_json("17", VERSIONS_17))
        )
    return path
