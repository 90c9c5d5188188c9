import pytest

from citecheck.extract import extract_citations
from citecheck.extract.paragraphs import MAX_PARAGRAPH, split_paragraphs


def _texts(text: str) -> list[str]:
    return [text[s:e] for s, e in split_paragraphs(text)]


def test_blank_lines_in_every_line_ending_style() -> None:
    assert _texts("a\n\nb\r\n\r\nc\r\rd\n  \t\ne") == ["a", "b", "c", "d", "e"]


def test_a_crlf_line_break_is_one_line_break() -> None:
    # a file saved on Windows, or an editor sending CRLF: a wrapped citation stays in one paragraph
    assert _texts("See Smith v.\r\nJones, 1 U.S. 1 (1990).\r\n\r\nNext.") == [
        "See Smith v.\r\nJones, 1 U.S. 1 (1990).",
        "Next.",
    ]


def test_single_line_breaks_and_unicode_separators_do_not_split() -> None:
    text = "Smith v. Jones,\n123 F.3d 456\u2028(9th Cir. 1999)\vx\fy"
    assert _texts(text) == [text]


def test_long_paragraph_splits_at_line_breaks() -> None:
    line = "word " * 100
    text = "\n".join([line] * 10)
    parts = split_paragraphs(text)
    assert len(text) > MAX_PARAGRAPH and len(parts) == 10
    assert all(text[s:e] == line for s, e in parts)


def test_empty_and_whitespace() -> None:
    assert split_paragraphs("") == []
    assert split_paragraphs("\n\n\n") == []


def test_line_without_breaks_is_cut_at_safe_sentence_ends() -> None:
    text = "Roe v. Wade, 410 U.S. 113 (1973). " * 300
    parts = split_paragraphs(text)
    assert len(parts) > 1 and all(e - s <= MAX_PARAGRAPH for s, e in parts)
    assert all(text[s:e].startswith("Roe v. Wade") for s, e in parts)  # never inside a citation


def test_unbreakable_text_is_still_bounded() -> None:
    text = "x" * (3 * MAX_PARAGRAPH + 5)
    parts = split_paragraphs(text)
    assert all(e - s <= MAX_PARAGRAPH for s, e in parts) and parts[-1][1] == len(text)


# Double-spaced text: every line its own "paragraph" unless the line cannot end one. The excerpt is a
# real First Circuit opinion as CourtListener's plain text gives it (United States v. Pérez-Montañez,
# CourtListener 150888): a blank line after every line, citations wrapped across two of them.
DOUBLE_SPACED = (
    "abettors, on the one hand, and accessories after the fact, on the\n\n"
    "other hand, thus remains important in federal criminal law. On\n\n"
    "each side of that boundary lies a separate offense with separate\n\n"
    "elements and a separate punishment. United States v. Avants, 367\n\n"
    "F.3d 433, 450 (5th Cir. 2004). One consequence of that enduring\n\n"
    'distinction is that "a person cannot be found guilty of aiding and\n\n'
    'abetting a crime that already has been committed." United States\n\n'
    "v. Hamilton, 334 F.3d 170, 180 (2d Cir. 2003); SEC v. Papa, 555\n\n"
    "F.3d 31, 36 (1st Cir. 2009).\n\n"
    "This point has important implications for Neliza's\n\n"
    "liability."
)


def test_double_spaced_lines_that_cannot_end_a_paragraph_join_the_next() -> None:
    cut = DOUBLE_SPACED.index("\n\nThis point")
    # the court's paragraph ends at "(1st Cir. 2009)."; every blank line before it double-spaces one
    assert _texts(DOUBLE_SPACED) == [DOUBLE_SPACED[:cut], DOUBLE_SPACED[cut + 2 :]]


@pytest.mark.parametrize(
    "text",
    [
        "The court so held in a long sentence that ends right here.\n\nSmith v. Jones, 1 F.3d 1 (1st Cir. 1990).",
        "II. THE DISTRICT COURT LACKED JURISDICTION OVER THE CLAIMS\n\nSmith v. Jones, 1 F.3d 1 (1st Cir. 1990).",
        "Standard of Review\n\nSmith v. Jones, 1 F.3d 1 (1st Cir. 1990).",  # a short heading
        "Standard of Review for Summary Judgment Motions\n\nSmith v. Jones, 1 F.3d 1 (1st Cir. 1990).",
        "- Smith v. Jones, 1 F.3d 1 (1st Cir. 1990) and the cases it cites\n\n- Brown v. Board, 347 U.S. 483",
        "a wrapped line that stops without a sentence's closing mark\n\n# Argument",
        "a wrapped line that stops without a sentence's closing mark\nand goes on\n\nA new paragraph.",
        "a wrapped line that stops without a sentence's closing mark\n\n\nafter two blank lines.",
        "a wrapped line that stops without a sentence's closing mark\n\nand then\nsingle spacing.",
    ],
    ids=["sentence end", "capitals heading", "short heading", "title-case heading", "list items", "markdown heading",
         "single-spaced before", "two blank lines", "single-spaced after"],
)  # fmt: skip
def test_blank_lines_still_end_paragraphs_where_text_is_not_double_spaced(text: str) -> None:
    assert len(split_paragraphs(text)) == 2


@pytest.mark.parametrize(
    "text",
    [
        "statutory interpretation, see, e.g., Thompson v. Thompson, 484\n\nU.S. 174, 179 (1988); and so on",
        "(1988); Touche Ross & Co. v. Redington, 442 U.S.\n\n560, 575-76 (1979), frequently asking",
        "a presumption that will endure unless the plaintiff proffers\n\nadequate evidence of intent.",
        "officers and directors continued into the buyer corporation. Id.\n\nat 693. Boston Gas did not",
    ],
    ids=["a volume", "U.S.", "a word", "Id."],
)  # real First Circuit lines (CourtListener 194628, 194746)
def test_a_wrapped_line_and_the_next_are_one_paragraph(text: str) -> None:
    assert _texts(text) == [text]


def test_a_page_number_line_is_joined_to_only_inside_a_citation() -> None:
    """A page's number between two paragraphs stays apart; between the parts of a citation (issue 41:
    page furniture between them) the parts are one paragraph and the number is not read as a volume.
    Before, ``442 U.S.⏎⏎-12-⏎⏎560`` was three paragraphs and the citation lost."""
    apart = "The court so held in a long sentence that ends the paragraph.\n\n-12-\n\nThe next one."
    assert _texts(apart) == [
        "The court so held in a long sentence that ends the paragraph.",
        "-12-",
        "The next one.",
    ]
    text = "The court so held in a long sentence that ends in 442 U.S.\n\n-12-\n\n560, as it did."
    assert _texts(text) == [text]
    (cite,) = extract_citations(text).citations
    assert (cite.volume, cite.reporter, cite.page) == ("442", "U.S.", "560")


def test_page_furniture_between_a_short_forms_parts() -> None:
    """Real First Circuit text as CourtListener serves it (194496, 194542): the page's number twice
    between the volume and the reporter. Read as a paragraph end it lost the short form; read whole it
    must not make ``5 F.2d at 353`` of the page number."""
    text = (
        "governs the accrual period.   See, e.g., Rivera-Muriente, 959\n"
        "                                                        \n\n"
        "                             -5-\n"
        "                              5\n\n"
        "F.2d  at 353.  Under federal  law, a plaintiff's   1983 cause"
    )
    assert len(_texts(text)) == 1
    (cite,) = [c for c in extract_citations(text).citations if c.volume]
    assert (cite.volume, cite.reporter, cite.antecedent_text) == ("959", "F.2d", "Rivera-Muriente")
    text = "cf. Chambers, 111\n                      \n\n                 15\n\nS. Ct. at 2136 (allowing use)"
    (cite,) = [c for c in extract_citations(text).citations if c.volume]
    assert (cite.volume, cite.reporter) == ("111", "S. Ct.")


def test_a_line_ending_in_a_comma_goes_on_after_blank_lines() -> None:
    assert _texts("\n Smart v. Tatum,\n \n \n 541 U.S. 1085 (2004);\n ") == [
        "\n Smart v. Tatum,\n \n \n 541 U.S. 1085 (2004);\n "
    ]
    assert len(split_paragraphs("Respectfully submitted,\n\n\n\n/s/ Jane Doe")) == 2  # three blank lines
