from citecheck.extract.courts import court_id


def test_third_circuit_maps_to_ca3() -> None:
    # courts-db writes "3rd Cir."; eyecite 2.7.8 maps "3d Cir." to no court
    assert court_id("3d Cir.") == "ca3"
    assert court_id("2d Cir.") == "ca2"
    assert court_id("9th Cir.") == "ca9"


def test_other_courts() -> None:
    assert court_id("S.D.N.Y.") == "nysd"
    assert court_id("D.C. Cir.") == "cadc"
    assert court_id("Cal. Ct. App. 2d Dist.") == "calctapp"
    assert court_id("Cal. Super. Ct.") is None  # not silently the Supreme Court of California
    assert court_id("holding that") is None
    assert court_id("D.C.") == "dc"  # the D.C. Court of Appeals, as the Bluebook means it


def test_lookup_is_memoised() -> None:
    court_id.cache_clear()
    for _ in range(50):
        court_id("N.D. Cal.")
    info = court_id.cache_info()
    assert info.misses == 1 and info.hits == 49


def test_dc_municipal_court_of_appeals_is_dc() -> None:
    # the D.C. Court of Appeals' predecessor (1942-1970); courts-db files both under "dc"
    assert court_id("D.C. Mun. App.") == "dc"
    assert court_id("D.C. Mun. Ct. App.") == "dc"
    assert court_id("D.C. Cir.") == "cadc"  # the federal circuit stays apart


def test_dc_municipal_court_of_appeals_parenthetical() -> None:
    from citecheck.extract import extract_citations

    (c,) = extract_citations("Savage v. Stoltz, 100 A.2d 450, 451 (D.C. Mun. App. 1953).").citations
    assert (c.court, c.court_text, c.year) == ("dc", "D.C. Mun. App.", 1953)
