"""``TINY`` limits make every fallback path of the keystroke machinery run (what the fuzz tests with
the ``limits`` fixture rely on), and the result is still a fresh extraction's."""

from __future__ import annotations

import random

from citecheck.extract import Document, Edit, extract_citations
from citecheck.extract.incremental import document as document_module
from citecheck.extract.incremental import lookups, zone
from citecheck.extract.incremental.memo import LocalMemo, paragraph_findings
from citecheck.extract.incremental.thresholds import DEFAULT, TINY, active, using
from citecheck.judge import check_locally

_PARAS = [
    "Roe v. Wade, 410 U.S. 113 (1973); Doe v. Bolton, 410 U.S. 179 (1973).",
    "The Court said so. Roe, 410 U.S. at 116. Id. at 117.",
    "Doe, supra, at 181. Roe at 120 adds more.",
    "Smith v. Jones, 33 F.3d 1 (3d Cir. 1990). Jones, 33 F.3d at 4.",
    "Plain prose between the citations.",
]


def _fallbacks(monkeypatch, limits) -> dict[str, int]:
    seen = {"whole re-split": 0, "own index": 0, "flooded": 0, "new queries": 0, "memo rebuilt": 0}
    real_resplit = document_module.Document._resplit_all
    real_own = lookups.LookupState.own_index
    real_queries = zone.Queries.__init__
    real_planned = zone.Zone.planned
    zones: list[zone.Zone] = []

    def resplit(self, old_text):
        seen["whole re-split"] += 1
        return real_resplit(self, old_text)

    def own(self):
        seen["own index"] += 1
        return real_own(self)

    def queries(self):
        seen["new queries"] += 1
        return real_queries(self)

    def planned(self, pno, start):
        zones.append(self)
        return real_planned(self, pno, start)

    monkeypatch.setattr(document_module.Document, "_resplit_all", resplit)
    monkeypatch.setattr(lookups.LookupState, "own_index", own)
    monkeypatch.setattr(zone.Queries, "__init__", queries)
    monkeypatch.setattr(zone.Zone, "planned", planned)
    rng = random.Random(3)
    with using(limits):
        assert active() is limits
        text = "\n\n".join(rng.choice(_PARAS) for _ in range(40))
        doc, memo = Document(text), LocalMemo()
        paragraph_findings(doc.extraction, memo, check_locally)
        seen["whole re-split"] = seen["new queries"] = 0  # opening the document is not a fallback
        for k in range(25):
            cur = doc.text
            at = rng.randrange(len(cur))
            if k % 3 == 2:  # into a case name: a record changes, later lookups are compared
                at = cur.find("Jones", at) if cur.find("Jones", at) >= 0 else cur.find("Jones")
            edits = [
                Edit(start=at, end=at, new_text=rng.choice(["a", "\n\n", "Roe v. Wade, 410 U.S. 113. "]))
            ]
            if k % 5 == 4:  # two edits in one batch (keystrokes that arrived together)
                edits.append(Edit(start=0, end=0, new_text="x"))
            before = memo.by_plan
            got = doc.apply_edits(edits)
            paragraph_findings(got, memo, check_locally)
            seen["memo rebuilt"] += memo.by_plan is not before
            assert got == extract_citations(doc.text)
    seen["flooded"] = sum(z.flooded for z in set(zones))
    monkeypatch.undo()
    return seen


def test_tiny_limits_run_every_fallback(monkeypatch) -> None:
    tiny = _fallbacks(monkeypatch, TINY)
    assert all(tiny.values()), tiny
    assert tiny["new queries"] > 1, tiny  # the first keystroke makes the document's first; TINY forgets it


def test_default_limits_keep_a_keystroke_on_the_incremental_path(monkeypatch) -> None:
    default = _fallbacks(monkeypatch, DEFAULT)
    assert default["whole re-split"] == default["own index"] == default["flooded"] == 0, default
    assert default["new queries"] == 1 and default["memo rebuilt"] == 0, default
