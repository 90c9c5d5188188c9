from citecheck.extract.paragraphs import MAX_PARAGRAPH, split_paragraphs


def _texts(text: str) -> list[str]:
    return [text[s:e] for s, e in split_paragraphs(text)]


def test_blank_lines_in_every_line_ending_style() -> None:
    assert _texts("a\n\nb\r\n\r\nc\r\rd\n  \t\ne") == ["a", "b", "c", "d", "e"]


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
