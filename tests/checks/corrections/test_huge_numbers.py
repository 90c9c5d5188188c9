"""Issue 35 item 6: a page or volume of 2^63 or more (a typo, a fuzzer) raised OverflowError in the corpus
lookup of the near misses, which lost every near-miss fix of the document. Now such a number is no page
the corpus can hold, and the document's other fixes stay."""

from __future__ import annotations

import logging

import pytest

from citecheck.findings import Kind, Severity

from .test_corrections import SAVAGE_QUOTE, primary


@pytest.mark.parametrize(
    "huge",
    [
        "Savage v. Parks, 100 A.2d 9223372036854775808 (D.C. 1953).",  # 2^63
        "Savage v. Parks, 99999999999999999999999 A.2d 450 (D.C. 1953).",
        "Savage v. Parks, 100 A.2d ²³ (D.C. 1953).",
    ],
)
async def test_a_page_or_volume_past_2_63_keeps_the_documents_other_fixes(check, caplog, huge) -> None:  # type: ignore[no-untyped-def]
    text = f'The court said "{SAVAGE_QUOTE}." Savage v. Parks, 100 A.2d 405, 451 (D.C. 1953).\n{huge}\n'
    with caplog.at_level(logging.ERROR):
        report = await check(text)
    assert not [r for r in caplog.records if "failed" in r.getMessage()], [
        r.getMessage() for r in caplog.records
    ]
    f = primary(report, Kind.CANNOT_VERIFY)
    assert f.severity is Severity.INFO
    assert [x.title for x in f.fixes] == ["Cite Savage v. Parks, 100 A.2d 450, 451 (1953)"]
