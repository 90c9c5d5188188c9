"""Explicit negative treatment read from real opinions' own words (treatment/language.py).

Every text is a short quotation of a real public-domain opinion, its source beside it; where the
opinion cites the treated case in full pages earlier, that citation is put first, as the opinion writes
it. The failure modes citators know are here too: "distinguished", chains of history, "declined to
overrule", a party's objection "overruled", a concurrence urging an overruling, a quoted overruling.
"""

from __future__ import annotations

import pytest

from citecheck.extract import extract_citations
from citecheck.treatment.language import sentences, statements, states_own_overruling
from citecheck.treatment.models import TreatmentKind

CA1 = "a First Circuit opinion as CourtListener serves it (github.com/chansooligans/Federal-Appellate-Court-" \
      "Opinions-Text-Analysis @ 27f7f91, Archive/Progress_Reports/data/{}.json)"  # fmt: skip
LEGALBENCH = (
    "a sentence of U.S. case law labelled by LegalBench's overruling task (HazyResearch/legalbench @ 0692518)"
)
SELF = "SELF"

# (text, source, expected: (treated case, treating case or SELF or None, kind, whole))
STATED = [
    ("Bowers v. Hardwick, 478 U.S. 186 (1986). Bowers was not correct when it was decided, and it is not correct "
     "today. It ought not to remain binding precedent. Bowers v. Hardwick should be and now is overruled.",
     "Lawrence v. Texas, 539 U.S. 558, 578 (2003)", [("Bowers", SELF, "overruled", True)]),
    ("Planned Parenthood of Southeastern Pa. v. Casey, 505 U.S. 833 (1992); Roe v. Wade, 410 U.S. 113 (1973). The "
     "Constitution does not confer a right to abortion; Roe and Casey are overruled; and the authority to regulate "
     "abortion is returned to the people and their elected representatives.",
     "Dobbs v. Jackson Women's Health Org., 597 U.S. 215 (2022)",
     [("Casey", SELF, "overruled", True), ("Roe", SELF, "overruled", True)]),
    ("Chevron U.S.A. Inc. v. Natural Resources Defense Council, Inc., 467 U.S. 837 (1984). Chevron is overruled. "
     "Courts must exercise their independent judgment in deciding whether an agency has acted within its "
     "statutory authority, as the APA requires.",
     "Loper Bright Enterprises v. Raimondo, 603 U.S. 369 (2024)", [("Chevron", SELF, "overruled", True)]),
    ("Adkins v. Children's Hospital, 261 U.S. 525 (1923). Our conclusion is that the case of Adkins v. Children's "
     "Hospital, supra, should be, and it is, overruled.",
     "West Coast Hotel Co. v. Parrish, 300 U.S. 379, 400 (1937)", [("Adkins", SELF, "overruled", True)]),
    ("Michigan v. Jackson, 475 U.S. 625 (1986). Michigan v. Jackson should be and now is overruled.",
     "Montejo v. Louisiana, 556 U.S. 778, 797 (2009)", [("Jackson", SELF, "overruled", True)]),
    ("See In re Credit Suisse First Bos. Corp., 431 F.3d 36, 46-47 (1st Cir.2005), overruled on other grounds by "
     "Tellabs, Inc. v. Makor Issues & Rights, Ltd., 551 U.S. 308, 127 S. Ct. 2499, 168 L. Ed. 2d 179 (2007).",
     CA1.format(183306), [("Credit Suisse", "Tellabs", "overruled", False)]),
    ("Yates v. United States, 354 U.S. 298 , 334 (1957), overruled on other grounds, Burks v. United States, "
     "437 U.S. 1 (1978); see also United States v. Medina, 761 F.2d 12 , 15 (1st Cir. 1985).",
     CA1.format(194759), [("354 U.S. 298", "437 U.S. 1", "overruled", False)]),
    ("The Tenth Circuit came to the same conclusion. See United States v. Rockwell, 984 F.2d 1112 , 1117 (10th "
     "Cir.) (overruling United States v. Boling, 947 F.2d 1461 (10th Cir. 1991)), cert. denied, 113 S. Ct. 2945 "
     "(1993).", CA1.format(195088), [("Boling", "Rockwell", "overruled", True)]),
    ("They rely on Cage v. Louisiana, 498 U.S. 39, 111 S. Ct. 328, 112 L. Ed. 2d 339 (1990) (per curiam), "
     "overruled in part by Estelle v. McGuire, 502 U.S. 62, 73 n. 4, 112 S. Ct. 475, 116 L. Ed. 2d 385 (1991), "
     "which stated that certain terms, not those used here, impermissibly suggest a higher degree of doubt.",
     CA1.format(151938), [("Cage", "Estelle", "overruled", False)]),
    ("Brown appealed, and during his appeal, this court decided United States v. Giggey (Giggey I), 551 F.3d 27 "
     "(1st Cir.2008) (en banc), overruling Sawyer and Fiore. Giggey I held that whether a conviction counts turns "
     "on the residual clause. United States v. Sawyer, 144 F.3d 191 (1st Cir. 1998); United States v. Fiore, "
     "983 F.2d 1 (1st Cir. 1992).", CA1.format(183765),
     [("Sawyer", "Giggey", "overruled", True), ("Fiore", "Giggey", "overruled", True)]),
    ("Commissioner v. Wilcox, 327 U.S. 404 (1946); Rutkin v. United States, 343 U.S. 130 (1952); James v. United "
     "States, 366 U.S. 213 (1961). The James Court, confronting the seeming anomaly created by Wilcox and Rutkin, "
     "overruled Wilcox and flatly rejected the taxpayer's contention.", CA1.format(195181),
     [("Wilcox", "James", "overruled", True)]),
    ("United States v. Mangos, 134 F.3d 460 (1st Cir. 1998). After doing so, we agree that Mangos's rule that the "
     "boilerplate charging language of assault and battery alone establishes a violent felony is no longer good "
     "law.", CA1.format(183309), [("Mangos", SELF, "no longer good law", True)]),
    ("Mardanlou v. Gen. Motors Corp., 69 S.W.3d 1 (Tex. App. 2001). To the extent that Mardanlou suggests "
     "otherwise, we overrule it.", LEGALBENCH + ", its citation written before it",
     [("Mardanlou", SELF, "overruled", False)]),
    ("Roe v. Wade, 314 F. Supp. 1217 (N.D. Tex. 1970), aff'd in part, rev'd in part, 410 U.S. 113 (1973), overruled "
     "by Dobbs v. Jackson Women's Health Org., 597 U.S. 215 (2022).", "a chain of subsequent history (Bluebook "
     "10.7): the overruling is of the last decision before it, the Supreme Court's",
     [("410 U.S. 113", "Dobbs", "overruled", True)]),
]  # fmt: skip

NOT_STATED = [
    ("The trial court overruled appellant's objection, explaining that it could not \"see unfair prejudice\" from "
     "admitting a vehicle registration.", "West v. United States, 100 A.3d 1076 (D.C. 2014)"),
    ("Appellant relies upon recent concurring opinions by Justices Stevens and Thomas in United States v. O'Brien, "
     "130 S. Ct. 2169 (2010), urging that \"McMillan and Harris should be overruled.\" McMillan v. Pennsylvania, 477 "
     "U.S. 79 (1986); Harris v. United States, 536 U.S. 545 (2002).", CA1.format(174681)),
    ("Until the Supreme Court overrules them, McMillan v. Pennsylvania, 477 U.S. 79 (1986) and Harris v. United "
     "States, 536 U.S. 545 (2002) remain good law.", CA1.format(174681)),
    ("De Nicols v. Curlier, [1900] A.C. 21. De Nicols is the only English precedent on point. It is still good "
     "law; it has never been overruled or discredited.", CA1.format(148833)),
    ("New England Tel. & Tel. Co. v. Pub. Utils. Comm'n, 742 F.2d 1 (1st Cir. 1984). In an effort to parry this "
     "thrust, OneLink counters that New England Telephone was wrongly decided and invites us to overrule it.",
     CA1.format(2672)),
    ("See United States v. Martin, 786 F.2d 974 , 976 (10th Cir. 1986) (declining to overrule Fox v. United States, "
     "354 F.2d 752 (10th Cir. 1965)).", CA1.format(195088)),
    ("Smith v. Jones, 100 F.2d 1 (5th Cir. 1990), distinguished by Doe v. Roe, 200 F.3d 2 (5th Cir. 2000).",
     "a citator's \"distinguished\", which is no negative treatment of the case's authority"),
    ("Wood v. Carolina Tel. & Tel. Co., 355 N.C. 161 (2002). But we reject plaintiff's argument that this grant of "
     "regulatory power to NC DOT superseded Wood for two reasons. The Baldwin Court did not overrule Wood.",
     "Mosteller v. Duke Energy Corp., 698 S.E.2d 424 (N.C. Ct. App. 2010)"),
    ("Dimeo claims for the first time that by permitting Amendment 488 to take effect Congress signaled its "
     "intention, thereby implicitly overruling Chapman v. United States, 500 U.S. 453 (1991).", CA1.format(195474)),
    ("State v. Chisolm, 355 S.C. 175 (2003). The court stated that, \"[t]o the extent [ Chisolm] can be read to "
     "require the testimony of each person in the chain of custody under all circumstances, it is inconsistent with "
     "the precedent established by our supreme court, and is hereby overruled.\"",
     "State v. Hatcher, 708 S.E.2d 750 (S.C. Ct. App. 2011), quoting another court's overruling"),
]  # fmt: skip


def _read(text: str, opinion_type: str | None = None) -> set[tuple[str, str | None, str, bool]]:
    ex = extract_citations(text)
    out = set()
    for st in statements(text, ex, opinion_type=opinion_type):

        def name(i: int) -> str:
            c = ex.citations[i]
            return f"{c.case_name.text if c.case_name else ''} {c.text}"

        actor = SELF if st.by_self else (name(st.actor) if st.actor is not None else None)
        out.add((name(st.target), actor, st.kind.value, st.whole))
    return out


@pytest.mark.parametrize(("text", "source", "expected"), STATED, ids=[s[:40] for _, s, _ in STATED])
def test_statements_real_opinions_make(text: str, source: str, expected: list) -> None:
    got = _read(text)
    assert len(got) == len(expected), (source, got)
    for target, actor, kind, whole in expected:
        match = [
            g
            for g in got
            if target in g[0] and (actor == g[1] if actor in (SELF, None) else actor in (g[1] or ""))
        ]
        assert match, (source, target, actor, got)
        assert match[0][2] == kind and match[0][3] == whole, (source, match)


@pytest.mark.parametrize(("text", "source"), NOT_STATED, ids=[s[:40] for _, s in NOT_STATED])
def test_what_is_no_statement_of_negative_treatment(text: str, source: str) -> None:
    assert _read(text) == set(), source


def test_a_dissent_saying_we_is_not_the_court() -> None:
    text = "Swift v. Tyson, 41 U.S. 1 (1842). For these reasons we overrule Swift v. Tyson today."
    assert {a for _, a, _, _ in _read(text)} == {SELF}
    assert _read(text, opinion_type="040dissent") == set()
    assert _read(text, opinion_type="030concurrence") == set()
    assert {a for _, a, _, _ in _read(text, opinion_type="020lead")} == {SELF}


def test_sentences_do_not_end_inside_citations_or_after_abbreviations() -> None:
    text = "See Smith v. Jones Co., 1 F.3d 2, 3 (1st Cir. 1990). Fiore. Giggey I held that. No. 5 is here."
    ex = extract_citations(text)
    parts = [text[s.start : s.end] for s in sentences(text, [c.full_span for c in ex.citations])]
    assert parts[0] == "See Smith v. Jones Co., 1 F.3d 2, 3 (1st Cir. 1990)." and "Fiore." in parts


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("to the extent that wright suggests or holds to the contrary, it is hereby overruled.", True),
        ("any prior cases to the contrary such as montoya and romo are expressly overruled.", True),
        (
            "today, in line with the united states supreme court precedent in macdonald and our court of appeals' "
            "admonitions, we hereby overrule our decisions in callaway and in boseman.",
            True,
        ),
        ("evans must therefore be overruled.", True),
        (
            "because the rule announced in downs was in effect for only about a year, petitioner contends we should "
            "overrule that case as having been wrongly decided.",
            False,
        ),
        ("chevron has been overruled.", False),  # reported, not this court's act
        ("as a result, the davis court overruled the holding in sablatura and dismissed the appeal.", False),
        # a point of error or an objection is no precedent (LegalBench's two false positives before)
        ("this assignment of error is accordingly overruled.", False),
        (
            "we overrule appellants' first point of error to the extent appellants challenge the legal sufficiency "
            "of the evidence of causation.",
            False,
        ),
        ("the state's objection is overruled.", False),
    ],
)
def test_one_sentence_read_alone(sentence: str, expected: bool) -> None:
    """LegalBench's overruling sentences (lower-case, no citations): the cue, voice and hedge rules alone."""
    assert states_own_overruling(sentence) is expected


def test_kinds() -> None:
    text = (
        "Bias v. Nationwide Mut. Ins. Co., 179 W. Va. 125, 365 S.E.2d 789 (1987), superseded by statute as "
        "recognized in Luikart v. Valley Brook Concrete & Supply, Inc., 216 W.Va. 748, 613 S.E.2d 896 (2005)."
    )
    (got,) = _read(text)
    assert got[2] == TreatmentKind.SUPERSEDED.value and "Luikart" in (got[1] or "")
