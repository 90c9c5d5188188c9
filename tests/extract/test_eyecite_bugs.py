"""Each eyecite 2.7.8 bug from notes/eyecite.md that real briefs trigger, and the two hot spots."""

from __future__ import annotations

from citecheck.extract import CiteForm, extract_citations


def _one(text: str, needle: str):
    found = [c for c in extract_citations(text).citations if needle in c.text]
    assert len(found) == 1, found
    return found[0]


def test_later_court_parenthetical_does_not_overwrite_earlier_year_or_span() -> None:
    text = "Roe v. Wade, 410 U.S. 113 (1973). Smith v. Jones, 123 F.3d 456 (9th Cir. 1999)."
    roe = _one(text, "410 U.S. 113")
    assert roe.year == 1973 and roe.court == "scotus"
    assert text[roe.full_span.start : roe.full_span.end] == "Roe v. Wade, 410 U.S. 113 (1973)"
    smith = _one(text, "123 F.3d 456")
    assert smith.year == 1999 and smith.court == "ca9"


def test_court_only_then_history_year_stays_with_history() -> None:
    text = "Doe v. Roe, 150 F.3d 10 (9th Cir.), cert. denied, 528 U.S. 1 (1999)."
    doe = _one(text, "150 F.3d 10")
    assert doe.court == "ca9" and doe.year is None
    assert doe.history == ("cert. denied, 528 U.S. 1",)


def test_en_dash_pin_range() -> None:
    c = _one("United States v. Abbott, 995 F.2d 348, 352\u201353 (3d Cir. 1993).", "995 F.2d 348")
    assert c.pincite is not None and c.pincite.text == "352\u201353"
    assert (c.pincite.parts[0].first, c.pincite.parts[0].last) == ("352", "353")


def test_non_ascii_neighbours_do_not_drop_citations() -> None:
    # Hyperscan drops these (multi-byte character right after the match); we normalise 1:1 first.
    text = (
        "\u201cThe statute in 410 U.S. 113\u201d was cited. "
        "Grutter, 539 U. S., at 339\u2013340. 28 U.S.C. \u00a7\u00a7 1331\u20131332."
    )
    cites = extract_citations(text).citations
    assert [c.text for c in cites if c.form is not CiteForm.UNRECOGNISED][:2] == [
        "410 U.S. 113",
        "Grutter, 539 U. S., at 339\u2013340",
    ]
    short = cites[1]
    assert short.pincite is not None and short.pincite.parts[0].last == "340"


def test_nbsp_inside_citation() -> None:
    text = "Roe v. Wade, 410\u00a0U.S.\u00a0113, 116 (1973)."
    c = _one(text, "113")
    assert (c.volume, c.reporter, c.page) == ("410", "U.S.", "113")
    assert c.text == "410\u00a0U.S.\u00a0113"
    assert c.case_name is not None and c.case_name.text == "Roe v. Wade"


def test_id_with_star_page_after_westlaw_cite() -> None:
    text = "Smith v. Jones, No. 12 Civ. 345, 2015 WL 2375225, at *3 (S.D.N.Y. Mar. 3, 2015). Id. at *5."
    cites = extract_citations(text).citations
    wl = next(c for c in cites if c.form is CiteForm.FULL)
    id_ = next(c for c in cites if c.form is CiteForm.ID)
    assert wl.database == "WL" and wl.date == "2015-03-03" and wl.court == "nysd"
    assert id_.antecedent == wl.index
    assert id_.pincite is not None and id_.pincite.parts[0].star and id_.pincite.parts[0].first == "5"
    assert not any(c.form is CiteForm.UNRECOGNISED for c in cites)  # "No. 12 Civ. 345" is a docket number


def test_third_circuit_parenthetical() -> None:
    c = _one("Smith v. Jones, 123 F.3d 456 (3d Cir. 2013).", "123 F.3d 456")
    assert c.court == "ca3" and c.court_text == "3d Cir." and c.year == 2013


def test_short_form_span_not_truncated_when_pin_has_footnote_or_range() -> None:
    text = (
        "Brown v. Board of Education, 347 U.S. 483 (1954). "
        "Brown, 347 U.S. at 495 n.3. Brown, 347 U.S. at 494\u201395."
    )
    shorts = [c for c in extract_citations(text).citations if c.form is CiteForm.SHORT]
    assert [c.text for c in shorts] == ["Brown, 347 U.S. at 495 n.3", "Brown, 347 U.S. at 494\u201395"]
    assert shorts[0].pincite.parts[0].footnote == "3"
    assert shorts[1].pincite.parts[0].last == "495"
    assert all(c.antecedent == 0 for c in shorts)


def test_hot_spots_are_never_run(monkeypatch) -> None:
    """eyecite's per-parenthetical court scan and per-citation reference re-scan must not run at all."""
    import eyecite.find
    import eyecite.helpers

    def boom(*args, **kwargs):
        raise AssertionError("eyecite hot spot called")

    monkeypatch.setattr(eyecite.helpers, "get_court_by_paren", boom)
    monkeypatch.setattr(eyecite.find, "extract_reference_citations", boom)
    monkeypatch.setattr(eyecite.find, "get_citations", boom)
    text = (
        "Roe v. Wade, 410 U.S. 113 (1973). Smith v. Jones, 123 F.3d 456 (3d Cir. 1999). Roe at 116. Id. at 5."
    )
    cites = extract_citations(text).citations
    assert [c.form for c in cites] == [CiteForm.FULL, CiteForm.FULL, CiteForm.REFERENCE, CiteForm.ID]
    assert cites[2].antecedent == 0 and cites[3].antecedent == 0


def test_only_the_tokenizer_imports_eyecite() -> None:
    """eyecite is read in one place (``extract/tokenizer.py`` reads its extractors into a table); the
    rest of the package sees our tokens and models only."""
    import ast
    from pathlib import Path

    import citecheck

    root = Path(citecheck.__file__).parent

    def imports_eyecite(path: Path) -> bool:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            if any(n == "eyecite" or n.startswith("eyecite.") for n in names):
                return True
        return False

    importers = sorted(str(p.relative_to(root)) for p in root.rglob("*.py") if imports_eyecite(p))
    assert importers == ["extract/tokenizer.py"]
