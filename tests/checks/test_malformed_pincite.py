"""malformed-pincite: a pin no court would accept; a valid pin with no checkable page is not malformed."""

from __future__ import annotations

from citecheck.checks.malformed_pincite import MalformedPinciteCheck
from citecheck.findings import Kind
from citecheck_testing import make_citation


def test_reversed_range_is_malformed(make_ctx) -> None:
    text = "Peyton v. District of Columbia, 100 A.2d 36, 38–36 (D.C. 1953)."
    c = make_citation(text, "100 A.2d 36", pin="38–36")
    [f] = MalformedPinciteCheck().run(make_ctx(text, [c], source_name=None))
    assert f.kind is Kind.MALFORMED_PINCITE and "backwards" in f.message


def test_a_pin_without_pages_but_not_malformed_gives_nothing(make_ctx) -> None:
    from dataclasses import replace

    from citecheck.extract.models import Pincite

    text = "Roe v. Wade, 410 U.S. 113 (1973). Id. at ___."
    c = make_citation(text, "410 U.S. 113")
    blank = replace(c, pincite=Pincite(text="___", span=c.span, parts=()))
    assert list(MalformedPinciteCheck().run(make_ctx(text, [blank], source_name=None))) == []
