import pytest

from citecheck.extract.normalise import normalise
from citecheck.extract.pincites import expand_range_end, parse_pincite


def _parse(text: str, stops: frozenset[int] = frozenset()):
    pin, end = parse_pincite(normalise(text), 0, len(text), original=text, stops=stops)
    return pin, end


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("352-53", "352", "353"),
        ("352\u201353", "352", "353"),
        ("1005\u201306", "1005", "1006"),
        ("99-101", "99", "101"),
    ],
)
def test_ranges_with_hyphen_and_en_dash(text: str, first: str, last: str) -> None:
    pin, _ = _parse(text)
    assert pin is not None and pin.text == text and pin.malformed is None
    assert (pin.parts[0].first, pin.parts[0].last) == (first, last)


def test_list_footnote_star() -> None:
    pin, _ = _parse("352, 355 (1999)")
    assert [p.first for p in pin.parts] == ["352", "355"] and pin.text == "352, 355"
    pin, _ = _parse("3 n.6.")
    assert pin.parts[0].first == "3" and pin.parts[0].footnote == "6"
    pin, _ = _parse("460 & n.4")
    assert pin.parts[0].footnote == "4" and pin.text == "460 & n.4"
    pin, _ = _parse("*3 (S.D.N.Y. 2019)")
    assert pin.parts[0].star and pin.parts[0].first == "3"


def test_parallel_volume_is_not_a_pin_page() -> None:
    text = "1005-06, 93 S. Ct. 705"
    pin, end = _parse(text, frozenset({text.index("93")}))
    assert pin.text == "1005-06" and end == 7


def test_malformed() -> None:
    pin, _ = _parse("355-352")
    assert pin.malformed and "ends before" in pin.malformed
    pin, _ = _parse("352- (1999)")
    assert pin.malformed and "no end" in pin.malformed


def test_expand() -> None:
    assert expand_range_end("352", "53") == "353"
    assert expand_range_end("1005", "6") == "1006"
    assert expand_range_end("99", "101") == "101"
