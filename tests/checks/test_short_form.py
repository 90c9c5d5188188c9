"""Unresolved short forms are flagged without any lookup."""

from __future__ import annotations

from citecheck.checks.short_form import UnresolvedShortFormCheck
from citecheck.findings import Kind
from citecheck.testing import make_citation


def test_id_without_antecedent(make_ctx) -> None:
    text = "As the court said, id. at 5."
    c = make_citation(text, "id. at 5", form="id", pin="5")
    [f] = UnresolvedShortFormCheck().run(make_ctx(text, [c], source_name=None))
    assert f.kind is Kind.UNRESOLVED_SHORT_FORM and f.span.of(text) == "id. at 5"


def test_resolved_short_form_is_fine(make_ctx) -> None:
    text = "Roe v. Wade, 410 U.S. 113 (1973). Id. at 116."
    full = make_citation(text, "410 U.S. 113")
    short = make_citation(text, "Id. at 116", index=1, form="id", pin="116", antecedent=0)
    assert list(UnresolvedShortFormCheck().run(make_ctx(text, [full, short], 1, source_name=None))) == []
