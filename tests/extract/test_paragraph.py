"""Fields of full citations: names, reporters, pincites, parentheticals, history, groups, quotes, propositions.

The citations are real ones from real filings and opinions.
"""

from __future__ import annotations

from citecheck.extract import CiteForm, Database, extract_citations


def _cites(text: str):
    return extract_citations(text).citations


def test_markdown_case_name() -> None:
    text = "*Mata v. Avianca, Inc.*, 678 F.Supp.3d 443, 448 (S.D.N.Y. 2023)."
    (c,) = _cites(text)
    assert c.case_name is not None
    assert c.case_name.text == "Mata v. Avianca, Inc."
    assert (c.case_name.plaintiff, c.case_name.defendant) == ("Mata", "Avianca, Inc.")
    assert text[c.case_name.span.start : c.case_name.span.end] == "Mata v. Avianca, Inc."
    assert (c.volume, c.reporter, c.reporter_as_written, c.page) == ("678", "F. Supp. 3d", "F.Supp.3d", "443")
    assert c.court == "nysd" and c.year == 2023 and c.pincite.text == "448"
    assert c.full_span.start == 1 and text[c.full_span.end - 1] == ")"


def test_bold_and_underscore_names() -> None:
    (c,) = _cites("See **Roe v. Wade**, 410 U.S. 113 (1973).")
    assert c.case_name.text == "Roe v. Wade"
    (c,) = _cites("See _Roe v. Wade_, 410 U.S. 113 (1973).")
    assert c.case_name.text == "Roe v. Wade"


def test_long_name_with_ampersand_and_abbreviations() -> None:
    text = (
        "The Seventh Circuit agreed. Mid Cent. Operating Eng\u2019rs Health & Welfare Fund v. HoosierVac LLC, "
        "105 F.4th 1001, 1005\u201306 (7th Cir. 2024)."
    )
    (c,) = _cites(text)
    assert c.case_name.text == "Mid Cent. Operating Eng\u2019rs Health & Welfare Fund v. HoosierVac LLC"
    assert c.case_name.plaintiff == "Mid Cent. Operating Eng\u2019rs Health & Welfare Fund"
    assert c.case_name.defendant == "HoosierVac LLC"
    assert c.court == "ca7" and c.pincite.parts[0].last == "1006"


def test_signals_and_sentence_words_are_not_part_of_the_name() -> None:
    cites = _cites(
        "The court so held. See, e.g., Smith v. Jones, 123 F.3d 456 (3d Cir. 1999); "
        "cf. United States ex rel. Polansky v. Exec. Health Res., Inc., 599 U.S. 419 (2023)."
    )
    assert [c.case_name.text for c in cites] == [
        "Smith v. Jones",
        "United States ex rel. Polansky v. Exec. Health Res., Inc.",
    ]


def test_in_re_name() -> None:
    (c,) = _cites("In re Fin. Oversight & Mgmt. Bd. for P.R., 590 B.R. 577 (D.P.R. 2018).")
    assert c.case_name.text == "In re Fin. Oversight & Mgmt. Bd. for P.R."
    assert c.court == "prd"


def test_parallel_citations_are_grouped_and_share_the_parenthetical() -> None:
    text = "State v. Dyous, 153 Conn. App. 266, 270, 100 A.3d 1004 (2014)."
    a, b = _cites(text)
    assert a.group == b.group == a.index
    assert a.pincite.text == "270" and b.pincite is None
    assert a.year == b.year == 2014
    assert a.case_name == b.case_name and a.case_name.text == "State v. Dyous"


def test_string_cite_gives_separate_authorities() -> None:
    text = "See Roe v. Wade, 410 U.S. 113 (1973); Doe v. Bolton, 410 U.S. 179, 181 (1973)."
    a, b = _cites(text)
    assert a.group == a.index and b.group == b.index and a.group != b.group
    assert (a.case_name.text, b.case_name.text) == ("Roe v. Wade", "Doe v. Bolton")
    assert a.year == b.year == 1973 and b.pincite.text == "181"


def test_explanatory_parentheticals_and_nested_citation() -> None:
    text = (
        "Planned Parenthood of Se. Pa. v. Casey, 505 U.S. 833, 846 (1992) (plurality opinion) "
        "(quoting Doe v. Bolton, 410 U.S. 179, 181 (1973))."
    )
    casey, doe = _cites(text)
    assert [p.text for p in casey.parentheticals] == [
        "plurality opinion",
        "quoting Doe v. Bolton, 410 U.S. 179, 181 (1973)",
    ]
    assert casey.year == 1992 and casey.full_span.end == len(text) - 1
    assert doe.case_name.text == "Doe v. Bolton" and doe.year == 1973


def test_subsequent_history() -> None:
    text = (
        "Tenafly Eruv Ass\u2019n v. Borough of Tenafly, 309 F.3d 144 (3d Cir. 2002), "
        "judgment vacated on reh\u2019g on other grounds, 391 F.3d 250 (3d Cir. 2004)."
    )
    main, later = _cites(text)
    assert main.history == ("judgment vacated on reh\u2019g on other grounds, 391 F.3d 250",)
    assert main.year == 2002 and main.full_span.end == len(text) - 1
    assert later.year == 2004 and later.case_name is None


def test_subsequent_history_naming_the_later_case() -> None:
    """A history phrase before a case name (issue 37): as a First Circuit opinion writes it (chansooligans/
    Federal-Appellate-Court-Opinions-Text-Analysis @ 27f7f91, 194759.json). Before, the phrase was not read."""
    text = (
        "Yates v. United States, 354 U.S. 298, 334 (1957), overruled on other grounds, Burks v. United States, "
        "437 U.S. 1 (1978); see also United States v. Medina, 761 F.2d 12, 15 (1st Cir. 1985)."
    )
    yates, burks, medina = _cites(text)
    assert yates.history == ("overruled on other grounds, Burks v. United States, 437 U.S. 1",)
    assert yates.full_span.end == text.index(";") and burks.case_name.text == "Burks v. United States"
    assert medina.history == () and not medina.full_span.start < yates.full_span.end


def test_full_date_and_databases() -> None:
    wl, lexis = _cites(
        "Smith v. Jones, 2019 WL 1396975, at *2 (S.D.N.Y. Mar. 27, 2019); "
        "Doe v. Roe, 2020 U.S. Dist. LEXIS 12345, at *4 (N.D. Cal. Jan. 3, 2020)."
    )
    assert wl.database is Database.WESTLAW and lexis.database is Database.LEXIS
    assert (wl.date, wl.year, wl.court) == ("2019-03-27", 2019, "nysd")
    assert (lexis.date, lexis.court) == ("2020-01-03", "cand")
    assert wl.date_span is not None and wl.pincite.text == "*2"


def test_placeholder_page() -> None:
    (c,) = _cites("Trump v. Hawaii, 585 U.S. ___ (2018).")
    assert c.page is None and c.volume == "585" and c.year == 2018


def test_quotes_before_citation_in_same_sentence_straight_and_curly() -> None:
    text = (
        'The Court explained that "the right of privacy is broad," Roe v. Wade, 410 U.S. 113, 153 (1973), '
        "and that \u201cthe State\u2019s interest grows,\u201d id. at 162."
    )
    roe, id_ = _cites(text)
    assert [q.text for q in roe.quotes] == ["the right of privacy is broad,"]
    assert [q.text for q in id_.quotes] == ["the State\u2019s interest grows,"]
    q = roe.quotes[0]
    assert text[q.span.start : q.span.end] == q.text


def test_nested_quotes_and_parenthetical_quotes() -> None:
    text = (
        "Brown v. Bd. of Educ., 347 U.S. 483, 495 (1954) "
        "(\u201cSeparate educational facilities are \u2018inherently unequal.\u2019\u201d)."
    )
    (c,) = _cites(text)
    assert [q.text for q in c.quotes] == [
        "Separate educational facilities are \u2018inherently unequal.\u2019"
    ]


def test_quote_in_previous_sentence_when_citation_stands_alone() -> None:
    text = 'Courts hold that "a contract requires consideration." See Smith v. Jones, 123 F.3d 456, 460 (3d Cir. 1999).'
    (c,) = _cites(text)
    assert c.proposition == 'Courts hold that "a contract requires consideration."'
    assert [q.text for q in c.quotes] == ["a contract requires consideration."]
    assert c.proposition_span.of(text) == c.proposition


def test_proposition_is_the_citing_sentence_when_it_has_prose() -> None:
    text = "Background. The Court in Roe v. Wade, 410 U.S. 113 (1973), recognised a right of privacy."
    (c,) = _cites(text)
    assert c.proposition == "The Court in Roe v. Wade, 410 U.S. 113 (1973), recognised a right of privacy."


def test_block_quote_before_citation() -> None:
    text = (
        "The Court explained:\n\n"
        "> Separate educational facilities are inherently unequal.\n"
        "> Therefore, we hold that the plaintiffs are deprived of equal protection.\n\n"
        "Brown v. Bd. of Educ., 347 U.S. 483, 495 (1954)."
    )
    (c,) = _cites(text)
    assert c.quotes and c.quotes[0].block
    assert c.quotes[0].text == (
        "Separate educational facilities are inherently unequal. "
        "Therefore, we hold that the plaintiffs are deprived of equal protection."
    )
    # the citation stands alone under the block quote: it is offered for the block quote
    assert c.proposition.startswith("Separate educational") and c.proposition.endswith("equal protection.")
    assert c.proposition_span.of(text) == c.proposition


def test_block_quote_ending_with_its_citation() -> None:
    text = (
        "> The right of privacy is broad enough to encompass a woman's decision. "
        "Roe v. Wade, 410 U.S. 113, 153 (1973)."
    )
    (c,) = _cites(text)
    assert c.quotes[0].block
    assert c.quotes[0].text == "The right of privacy is broad enough to encompass a woman's decision."


def test_paragraph_index() -> None:
    cites = _cites("Roe v. Wade, 410 U.S. 113 (1973).\n\nText.\n\nId. at 116.")
    assert [c.paragraph for c in cites] == [0, 2]
    assert cites[1].form is CiteForm.ID and cites[1].antecedent == 0


def test_state_styles_from_real_opinions() -> None:
    # New York: year in square brackets; California: year before the volume; Illinois: paragraph pins
    ny = _cites(
        "( see Metropolitan Transp. Auth. v. Bruken Realty Corp., 67 N.Y.2d 156, 160, "
        "501 N.Y.S.2d 306, 492 N.E.2d 379 [1986] )."
    )
    assert len({c.group for c in ny}) == 1 and all(c.year == 1986 for c in ny)
    assert (
        ny[0].case_name.text == "Metropolitan Transp. Auth. v. Bruken Realty Corp."
        and ny[0].pincite.text == "160"
    )
    ca = _cites("(Delaney v. Superior Court (1990) 50 Cal.3d 785, 798, 268 Cal.Rptr. 753, 789 P.2d 934.)")
    assert (
        ca[0].case_name.text == "Delaney v. Superior Court"
        and ca[0].year == 1990
        and len({c.group for c in ca}) == 1
    )
    il = _cites("In re A.C. , 2016 IL App (1st) 153047, \u00b6 24, 403 Ill.Dec. 811, 54 N.E.3d 952.")
    assert il[0].pincite.text == "\u00b6 24" and len({c.group for c in il}) == 1
    ga = _cites("Curtis v. Bd. of Regents &c. of Ga., 262 Ga. 226, 227-228, 416 S.E.2d 510 (1992).")
    assert (
        ga[0].case_name.text == "Curtis v. Bd. of Regents &c. of Ga." and ga[0].pincite.parts[0].last == "228"
    )


def test_docket_numbers_and_blank_reporters_between_name_and_citation() -> None:
    (wl, lexis) = _cites(
        "See, e.g., People v. Lewis, No. B217677, 2010 WL 780918, at *2, 2010 Cal.App. Unpub. LEXIS 1694, at *5 "
        "(Cal.Ct.App. Mar. 9, 2010)."
    )
    assert wl.case_name.text == "People v. Lewis" and wl.group == lexis.group
    assert (wl.date, wl.court) == ("2010-03-09", "calctapp")
    (c,) = _cites("Smith v. Jones, No. 12 Civ. 345 (LAK), 2015 WL 2375225, at *3 (S.D.N.Y. Mar. 3, 2015).")
    assert c.case_name.text == "Smith v. Jones"
    first = _cites(
        "Direct Mktg. Ass'n v. Brohl, --- U.S. ----, 135 S.Ct. 1124, 1132, 191 L.Ed.2d 97 (2015)."
    )[0]
    assert first.case_name.text == "Direct Mktg. Ass'n v. Brohl" and first.year == 2015


def test_date_parenthetical_words() -> None:
    (c,) = _cites("Doe v. Roe, No. 19-cv-1, 2020 WL 12345, at *2 (N.D. Cal. filed Jan. 3, 2020).")
    assert (c.court, c.court_text, c.date) == ("cand", "N.D. Cal.", "2020-01-03")
    (c,) = _cites("Doe v. Roe, 123 F. App'x 45 (9th Cir. 2005) (mem.).")
    assert c.court == "ca9" and c.year == 2005 and [p.text for p in c.parentheticals] == ["mem."]
