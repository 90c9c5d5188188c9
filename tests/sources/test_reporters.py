from citecheck.sources.reporters import (
    cap_slug,
    courtlistener_covers,
    is_database,
    is_known_reporter,
    normalise_reporter,
)


def test_normalise_known_spellings():
    assert normalise_reporter("A. 2d") == "A.2d"
    assert normalise_reporter("F.Supp.2d") == "F. Supp. 2d"
    assert normalise_reporter("  Conn.   App. ") == "Conn. App."
    assert normalise_reporter("U.S.") == "U.S."


def test_unknown_reporter_is_kept_not_guessed():
    assert normalise_reporter("Umbrella") == "Umbrella"
    assert not is_known_reporter("Umbrella")
    # "H." is ambiguous (Handy, Haw., Hill): never silently pick one
    assert normalise_reporter("H.") == "H."


def test_database_cites():
    assert is_database("WL") and is_database("U.S. Dist. LEXIS")
    assert not is_database("F.3d")


def test_cap_slugs_follow_case_law_layout():
    assert [cap_slug(r) for r in ("A.2d", "Ala. App.", "F. Supp. 2d", "Cal. Rptr. 3d")] == [
        "a2d",
        "ala-app",
        "f-supp-2d",
        "cal-rptr-3d",
    ]


def test_courtlistener_coverage_is_conservative():
    assert courtlistener_covers("A.2d", "100")  # series closed in 2010: all of it came from CAP
    assert courtlistener_covers("U.S.", "410")
    assert not courtlistener_covers("A.3d", "100")  # still running: CourtListener may lack new cases
    assert not courtlistener_covers("U.S.", "600")
    assert not courtlistener_covers("Umbrella", "1")
