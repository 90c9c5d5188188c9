"""Unresolved short forms are flagged without any lookup; Id./supra that may cite a statute are info."""

from __future__ import annotations

from citecheck.checks.short_form import UnresolvedShortFormCheck
from citecheck.findings import Kind, Severity
from citecheck_testing import make_citation


def test_reporter_short_cite_without_full_cite_is_a_warning(make_ctx) -> None:
    text = "As the court said, Roe, 410 U.S. at 116."
    c = make_citation(text, "Roe, 410 U.S. at 116", form="short", pin="116", volume="410", reporter="U.S.")
    [f] = UnresolvedShortFormCheck().run(make_ctx(text, [c], source_name=None))
    assert (f.kind, f.severity) == (Kind.UNRESOLVED_SHORT_FORM, Severity.WARNING)
    assert f.span.of(text) == "Roe, 410 U.S. at 116"


def test_id_without_case_antecedent_is_info(make_ctx) -> None:
    text = "See 42 U.S.C. § 1983; id. at 5."
    c = make_citation(text, "id. at 5", form="id", pin="5")
    [f] = UnresolvedShortFormCheck().run(make_ctx(text, [c], source_name=None))
    assert (f.kind, f.severity) == (Kind.UNRESOLVED_SHORT_FORM, Severity.INFO)
    assert "statute" in f.message


def test_resolved_short_form_is_fine(make_ctx) -> None:
    text = "Roe v. Wade, 410 U.S. 113 (1973). Id. at 116."
    full = make_citation(text, "410 U.S. 113")
    short = make_citation(text, "Id. at 116", index=1, form="id", pin="116", antecedent=0)
    assert list(UnresolvedShortFormCheck().run(make_ctx(text, [full, short], 1, source_name=None))) == []
