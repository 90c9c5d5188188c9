"""citecheck's extraction scored on eyecite's own test suite (the peer's expectations), beside eyecite.

eyecite's ``tests/test_FindTest.py`` is a list of ``(text, [expected citations], {kwargs})`` pairs.
This bench reads them at run time from an eyecite checkout (nothing of it is copied here), runs our
extraction and eyecite's ``get_citations`` on each text, and compares both with the expectation field
by field on what a citation checker uses: the kind (full, short, Id., supra, reference), volume,
reporter (reporters-db's corrected form, spacing ignored), first page, pin cite, year, court, the
parties' names, the first explanatory parenthetical, and the short form's antecedent name. A pair is
*exact* when every case citation it expects is found with every field equal and nothing else is found.

Statute, journal and section citations are out of scope here (our case extraction does not return
them; statutes are extracted on their own) and are dropped from both sides. Three expectations are
read the way our model records the same fact: the Supreme Court court id that eyecite's factory adds
to any ``U.S.`` citation is compared only when the text names a court; a pin is compared without its
``at`` / ``p.`` words; a short form's page is its pin; a name with no ``v.`` (``Loup-Miller, 676
P.2d 1170``), which our model keeps as the name's text with no parties, is compared as eyecite files
it, as the defendant.

Some expectations are wrong as a reading of the citation (eyecite's own comments say so for several,
or a lawyer would read the citation otherwise). ``SET_ASIDE`` lists pairs whose expectation no citation
checker should meet (a peer option that drops real citations, placeholder text, a bare name with no
page); ``CORRECTED`` lists pairs whose expectation leaves out or misreads a field the text states (a
court and year in the parenthetical), with the corrected value. Each has its reason; the score is
printed as eyecite wrote the pairs and with those set aside and corrected (both tools on the same).

    python bench/eyecite_suite.py --eyecite-tests PATH/TO/eyecite/tests [--show 30] [--all]
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from citecheck.extract import CiteForm, extract_citations

#: Pairs set aside, by the start of their text, with why: only expectations that test an option of the
#: peer's own (a custom tokenizer, ``remove_ambiguous``) or a reading that is wrong for any citation
#: checker. Our own misses are never set aside: a lower-case name before ``supra``, a bare name with
#: no page, a caption cut at a second comma all count against us.
SET_ASIDE: dict[str, str] = {
    "1 U,S, 1": "tests eyecite's custom-tokenizer option (an invented 'U,S,' reporter)",
    "1 Cranch 1 1 U.S. 23": "tests eyecite's remove_ambiguous option, which drops a real citation",
    "1 Johnson 1 (1806)": "tests eyecite's remove_ambiguous option, which drops a real citation",
    "supra.": (
        "a tokenizer edge case ('supra' at the start of the input): no name, so nothing cited; a checker "
        "reading it would report every cross-reference ('see Part II, supra.') as a case it cannot find"
    ),
    ", supra.": "a tokenizer edge case ('supra' at the start of the input): no name, nothing cited",
    "123 supra.": "a tokenizer edge case ('supra' at the start of the input): no name, nothing cited",
}

#: Pairs whose expectation misreads a field the text states, by the start of their text: the reason and
#: the corrected fields ((citation, field) → value, or a citation inserted at an index); both tools are
#: scored on the corrected expectation.
CORRECTED: dict[str, tuple[str, dict[tuple[int, str], Any]]] = {
    "Corp. v. Nature's Farm Prods., No. 99 Civ. 9404": (
        "a docket number is no part of the defendant's name",
        {(0, "defendant"): "Nature's Farm Prods."},
    ),
    "v. Bar, 1 U.S. 1": ("'v. Bar': Bar is the defendant", {(0, "defendant"): "Bar"}),
    "speech.” Houston Cmty. Coll. Sys. v. Wilson": (
        "the plaintiff is 'Houston Cmty. Coll. Sys.', not 'Sys.'",
        {(0, "plaintiff"): "Houston Cmty. Coll. Sys."},
    ),
    "U.S. v. Boch Oldsmobile, Inc., 909 F.2d 657, 660 (1st Cir.1990)": (
        "the parenthetical names the court and year",
        {(0, "court"): "ca1", (0, "year"): 1990},
    ),
    "<em>Grant </em>v. <em>Esquire, Inc. </em>(S.D.N.Y. 1973)": (
        "the court and year stand before the citation; the supra's name is 'Grant v. Esquire, Inc.', no 'supra'",
        {(0, "court"): "nysd", (0, "year"): 1973, (1, "antecedent"): "Grant v. Esquire, Inc."},
    ),
    "Judge Regan (dissenting) in <i>Thrift Funds Canal": (
        "'La.App. 4 Cir.' is Louisiana's court of appeal",
        {(0, "court"): "lactapp"},
    ),
    "objection. Our Lady of the Lake Hosp. v. Vanner": (
        "'(La.App. 1 Cir. 12/15/95)' names the court and year",
        {(0, "court"): "lactapp", (0, "year"): 1995},
    ),
    "this Court. Holm; In Re Carroll’s Estate (1921)": ("'(1921)' is the year", {(0, "year"): 1921}),
    "and In re Spellman, 4 A.D.2d 215 (N.Y.App.Div.1957)": (
        "the parenthetical names the court and year",
        {(0, "court"): "nyappdiv", (0, "year"): 1957},
    ),
    "Cf. Akins v. State, 104 So.3d 1173 (Fla. 1st DCA 2012)": (
        "'Fla. 1st DCA' is Florida's district court of appeal",
        {(0, "court"): "fladistctapp"},
    ),
    "See id.; see also Harper v. State": (
        "'See id.;' is an Id. citation (eyecite's Id. token misses it before a semicolon); the pin 218 and "
        "the year 2009 are written",
        {
            (-1, "insert"): {"kind": "id", "pin": None, "parenthetical": None},
            (1, "pin"): "218",
            (1, "year"): 2009,
            (2, "year"): 2009,
        },
    ),
}


_CASE_KINDS = {"full", "short", "id", "supra", "reference"}
_KIND_OF_CLASS = {
    "FullCaseCitation": "full",
    "ShortCaseCitation": "short",
    "IdCitation": "id",
    "SupraCitation": "supra",
    "ReferenceCitation": "reference",
    "FullLawCitation": "law",
    "FullJournalCitation": "journal",
    "UnknownCitation": "unknown",
}


def load_pairs(tests_dir: Path) -> list[tuple[str, str, list[Any], dict[str, Any]]]:
    """Every ``run_test_pairs`` pair of eyecite's test_FindTest.py: (group, text, expected, kwargs)."""
    import eyecite.tokenizers as tokenizers

    class _NoHyperscan(tokenizers.AhocorasickTokenizer):  # hyperscan is not installed here
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__()

    tokenizers.HyperscanTokenizer = _NoHyperscan  # type: ignore[misc,assignment]
    spec = importlib.util.spec_from_file_location("eyecite_find_test", tests_dir / "test_FindTest.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"no test_FindTest.py in {tests_dir}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    collected: list[tuple[str, str, list[Any], dict[str, Any]]] = []

    def collect(self: Any, test_pairs: Any, message: str, tokenizers: Any = None) -> None:
        for q, expected, *kwargs in test_pairs:
            collected.append((message, q, list(expected), dict(kwargs[0]) if kwargs else {}))

    cls = module.FindTest
    cls.run_test_pairs = collect
    for name in sorted(vars(cls)):
        if name.startswith("test_") and "run_test_pairs" in _source(getattr(cls, name)):
            getattr(cls(name), name)()
    return collected


def _source(fn: Any) -> str:
    import inspect

    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return ""


def _pin(text: str | None) -> str | None:
    if not text:
        return None
    t = " ".join(text.split()).strip(" ,.;")
    t = re.sub(r"^(?:at\s+)?(?:pp?\.\s*)?", "", t)
    return t or None


def _name(text: str | None) -> str | None:
    if not text:
        return None
    return " ".join(text.split()).strip(" ,") or None


def _reporter(text: str | None) -> str | None:
    return None if text is None else text.replace(" ", "")


def expected_fields(cite: Any, text: str) -> dict[str, Any]:
    kind = _KIND_OF_CLASS.get(type(cite).__name__, "unknown")
    md = cite.metadata
    out: dict[str, Any] = {"kind": kind}
    if kind in ("full", "short"):
        out["volume"] = cite.groups.get("volume")
        out["reporter"] = _reporter(cite.corrected_reporter())
    if kind == "full":
        out["page"] = cite.groups.get("page")
    if kind in ("full", "short", "reference"):
        out["year"] = getattr(cite, "year", None)
    if kind in ("full", "short"):
        out["court"] = _court(getattr(md, "court", None), out.get("reporter"))
    if kind in ("full", "reference"):
        out["plaintiff"] = _name(getattr(md, "plaintiff", None))
        out["defendant"] = _name(getattr(md, "defendant", None))
    out["pin"] = _pin(getattr(md, "pin_cite", None))
    out["parenthetical"] = _name(getattr(md, "parenthetical", None))
    if kind in ("short", "supra"):
        out["antecedent"] = _name(getattr(md, "antecedent_guess", None))
    return out


_OUR_KIND = {
    CiteForm.FULL: "full",
    CiteForm.SHORT: "short",
    CiteForm.ID: "id",
    CiteForm.SUPRA: "supra",
    CiteForm.REFERENCE: "reference",
    CiteForm.UNRECOGNISED: "unrecognised",
}


_SCOTUS_ONLY = {"U.S.", "S.Ct.", "L.Ed.", "L.Ed.2d", "U.S.L.W."}


def _court(court: str | None, reporter: str | None) -> str | None:
    """A Supreme Court reporter implies its court; compared only when a parenthetical could say another."""
    if court == "scotus" and reporter in _SCOTUS_ONLY:
        return None
    return court


def our_fields(c: Any, text: str, extraction: Any = None) -> dict[str, Any]:
    kind = _OUR_KIND.get(c.form, "law")  # statutes are extracted on their own; out of this comparison
    out: dict[str, Any] = {"kind": kind}
    if kind in ("full", "short"):
        out["volume"] = c.volume
        out["reporter"] = _reporter(c.reporter)
    if kind == "full":
        out["page"] = c.page
    if kind in ("full", "short", "reference"):
        out["year"] = c.year
    if kind in ("full", "short"):
        out["court"] = _court(c.court, out.get("reporter"))
    if kind == "reference":
        # eyecite files "Foo at 62" under the party of the full cite it matched; ours names the full cite
        out["plaintiff"] = out["defendant"] = None
        full = (
            extraction.citations[c.antecedent]
            if extraction is not None and c.antecedent is not None
            else None
        )
        party = _name(c.antecedent_text)
        if full is not None and full.case_name is not None and party:
            if party == _name(full.case_name.defendant) or (
                full.case_name.plaintiff is None and party in (full.case_name.text or "")
            ):
                out["defendant"] = party
            else:
                out["plaintiff"] = party
    if kind == "full":
        name = c.case_name
        out["plaintiff"] = _name(name.plaintiff) if name else None
        out["defendant"] = _name(name.defendant) if name else None
        if name is not None and name.plaintiff is None and name.defendant is None:
            out["defendant"] = _name(name.text)  # a lone name ("Loup-Miller, 676 P.2d"): eyecite files it so
    out["pin"] = _pin(c.pincite.text if c.pincite else None)
    out["parenthetical"] = _name(c.parentheticals[0].text) if c.parentheticals else None
    if kind in ("short", "supra"):
        out["antecedent"] = _name(c.antecedent_text)
    return out


def _eyecite_fields(cite: Any, text: str) -> dict[str, Any]:
    return expected_fields(cite, text)


def clean(text: str, kwargs: dict[str, Any]) -> str:
    from eyecite import clean_text

    steps = kwargs.get("clean_steps") or []
    return clean_text(text, steps) if steps else text


def _starts(q: str, text: str, start: str) -> bool:
    return q.lstrip().startswith(start.lstrip()) or text.lstrip().startswith(start.lstrip())


def corrected(exp: list[dict[str, Any]], fixes: dict[tuple[int, str], Any]) -> list[dict[str, Any]]:
    out = [dict(e) for e in exp]
    for (i, key), value in fixes.items():
        if key == "insert":
            out.insert(i + 1, dict(value))
        else:
            out[i][key] = value
    return out


def compare(expected: list[dict[str, Any]], found: list[dict[str, Any]]) -> list[str]:
    """What differs, as readable lines (empty: exact)."""
    exp = [e for e in expected if e["kind"] in _CASE_KINDS]
    got = [f for f in found if f["kind"] in _CASE_KINDS]
    if len(exp) != len(got):
        return [f"count {len(got)} != {len(exp)}: {[f['kind'] for f in got]} vs {[e['kind'] for e in exp]}"]
    diffs = []
    for i, (e, f) in enumerate(zip(exp, got, strict=True)):
        for key in sorted(set(e) | set(f)):
            if e.get(key) == f.get(key) or (key == "antecedent" and _same_antecedent(f.get(key), e.get(key))):
                continue
            diffs.append(f"#{i} {key}: {f.get(key)!r} != {e.get(key)!r}")
    return diffs


def _same_antecedent(ours: str | None, theirs: str | None) -> bool:
    """eyecite guesses a short form's antecedent as the word(s) before it ("Bar" of "Foo v. Bar, supra");
    ours is the whole name written there: the same when its last party is their guess."""
    if not ours or not theirs:
        return False
    return re.split(r"\s+v\.?\s+", ours)[-1] == theirs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eyecite-tests", type=Path, required=True, help="eyecite's tests/ folder")
    ap.add_argument("--show", type=int, default=30, help="list this many of our inexact pairs")
    ap.add_argument("--all", action="store_true", help="also list eyecite's inexact pairs")
    args = ap.parse_args()
    from eyecite import get_citations

    pairs = load_pairs(args.eyecite_tests)
    t0 = time.perf_counter()
    score: Counter[str] = Counter()
    shown: list[str] = []
    theirs_shown: list[str] = []
    groups: Counter[str] = Counter()
    for group, q, expected, kwargs in pairs:
        text = clean(q, kwargs)
        aside = next((why for start, why in SET_ASIDE.items() if _starts(q, text, start)), None)
        fix = next((f for start, f in CORRECTED.items() if _starts(q, text, start)), None)
        exp = [expected_fields(c, text) for c in expected]
        extraction = extract_citations(text)
        ours = [our_fields(c, text, extraction) for c in extraction.citations]
        try:
            peer_kwargs = dict(kwargs)
            peer_kwargs["markup_text" if "html" in (kwargs.get("clean_steps") or []) else "plain_text"] = q
            found = get_citations(**peer_kwargs)
            theirs = [_eyecite_fields(c, text) for c in found]
        except Exception as exc:  # the peer's own failure counts against it
            theirs = [{"kind": f"error {exc!r}"}]
        score["ours as written"] += not compare(exp, ours)
        score["theirs as written"] += not compare(exp, theirs)
        if aside is not None:
            continue
        if fix is not None:
            exp = corrected(exp, fix[1])
        d_ours, d_theirs = compare(exp, ours), compare(exp, theirs)
        score["kept"] += 1
        score["ours"] += not d_ours
        score["theirs"] += not d_theirs
        if d_ours:
            groups[group] += 1
            shown.append(f"  [{group}] {text[:150]!r}\n      " + "\n      ".join(d_ours[:6]))
        if d_theirs:
            theirs_shown.append(f"  [{group}] {text[:150]!r}\n      " + "\n      ".join(d_theirs[:6]))
    n, kept = len(pairs), score["kept"]
    secs = time.perf_counter() - t0
    print(
        f"eyecite's test_FindTest.py: {n} pairs; {n - kept} set aside and {len(CORRECTED)} corrected as "
        f"peer-wrong; {secs:.1f} s"
    )
    print(
        f"  as eyecite wrote them:          citecheck {score['ours as written']}/{n} = "
        f"{100 * score['ours as written'] / n:.1f} %, eyecite {score['theirs as written']}/{n} = "
        f"{100 * score['theirs as written'] / n:.1f} %"
    )
    print(
        f"  peer-wrong set aside/corrected: citecheck {score['ours']}/{kept} = {100 * score['ours'] / kept:.1f} %, "
        f"eyecite {score['theirs']}/{kept} = {100 * score['theirs'] / kept:.1f} %"
    )
    for start, why in SET_ASIDE.items():
        print(f"  set aside {start[:50]!r}: {why}")
    for start, (why, _) in CORRECTED.items():
        print(f"  corrected {start[:50]!r}: {why}")
    if groups:
        print("  citecheck inexact by group: " + ", ".join(f"{g} {k}" for g, k in groups.most_common()))
    for line in shown[: args.show]:
        print(line)
    if len(shown) > args.show:
        print(f"  … {len(shown) - args.show} more")
    if args.all:
        print("eyecite inexact:")
        for line in theirs_shown:
            print(line)


if __name__ == "__main__":
    main()
