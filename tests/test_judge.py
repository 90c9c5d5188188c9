"""``local_findings`` with a memo gives exactly what it gives without one, edit after edit."""

from __future__ import annotations

import random

from citecheck.config import Settings
from citecheck.extract import Document, Edit
from citecheck.judge import LocalMemo, local_findings

PARAS = [
    "Umbrellas are no defence. Smith v. Jones, 33 Umbrella 422 (1986).",
    "The pin is reversed. Peyton v. District of Columbia, 100 A.2d 36, 40-38 (D.C. 1953).",
    "As held in id. at 4.",
    "See Roe, 410 U.S. at 116.",
    "Later still: Doe v. Roe, 12 F.4th 1 (2d Cir. 1890).",
]


def test_memo_changes_nothing_but_the_work() -> None:
    text = "\n\n".join(PARAS * 6)
    doc, memo, settings = Document(text), LocalMemo(), Settings()
    assert local_findings(doc.extraction, settings, memo) == local_findings(doc.extraction, settings)
    rng = random.Random(5)
    for step in range(40):
        at = rng.randrange(len(text))
        new = rng.choice(["a", "", " supra note 3", "Id. at 7. ", "\n\n"])
        end = at + (1 if new == "" and at < len(text) else 0)
        doc.apply_edits([Edit(start=at, end=end, new_text=new)])
        text = text[:at] + new + text[end:]
        with_memo = local_findings(doc.extraction, settings, memo)
        assert with_memo == local_findings(doc.extraction, settings), step
    assert memo and all(entry[0] in doc.extraction.citations for entry in memo.values())
