from citecheck.extract.normalise import normalise


def test_same_length_and_mappings() -> None:
    text = (
        "Roe\u00a0v. Wade, 410\u202fU.S. 113, 116\u201317 \u201cquoted\u201d \u2018x\u2019 "
        "*Mata*, at *3, 585 U.S. ___ \u2028\v\f"
    )
    out = normalise(text)
    assert len(out) == len(text)
    assert "410 U.S. 113, 116-17" in out
    assert '"quoted"' in out and "'x'" in out
    assert " Mata " in out  # emphasis markers blanked
    assert "at *3" in out  # a star page is not emphasis
    assert "585 U.S. ___" in out  # a blank page is not emphasis


def test_non_bmp_characters_keep_offsets() -> None:
    text = "\U0001f600 Roe v. Wade, 410 U.S. 113"
    assert len(normalise(text)) == len(text)


def test_emphasis_blanked_as_the_one_regex_blanks_it() -> None:
    """``normalise`` blanks stars and underscores with two regexes (``_EMPHASIS``'s alternatives apart):
    the same text as the one regex, on random stars, underscores, digits and letters."""
    import random

    from citecheck.extract.normalise import _EMPHASIS, _blank

    rng = random.Random(44)
    changed = 0
    for _ in range(3_000):
        text = "".join(
            rng.choice(("*", "**", "_", "__", "___", "3", "x", " ", "*3", "_3")) for _ in range(12)
        )
        assert normalise(text) == _EMPHASIS.sub(_blank, text), text
        changed += normalise(text) != text
    assert changed > 2_000
