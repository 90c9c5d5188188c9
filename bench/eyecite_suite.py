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
``at`` / ``p.`` words; a short form's page is its pin.

Some expectations are wrong as a reading of the citation (eyecite's own comments say so for several,
or a lawyer would read the citation otherwise); they are listed in ``PEER_WRONG`` with the reason, and
the score is given with and without them.

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

#: Expectations set aside, by the start of their text, with why the expected reading is wrong.
PEER_WRONG: dict[str, str] = {
    "before Foo 1 U. S., at 2": "no comma: 'Foo' is prose, not a short-form name (eyecite: 'meaningless antecedent')",
    "Corp. v. Nature's Farm Prods., No. 99 Civ. 9404": "a docket number is never part of a case name",
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
_COURT_IN_TEXT = re.compile(r"\((?:[^()]*\b(?:Cir|Ct|Sup|S\.C|Dist)\b)|\b(?:scotus|U\.S\.)\s*\d{4}\)")


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
        court = getattr(md, "court", None)
        if court == "scotus" and not _COURT_IN_TEXT.search(text):
            court = None  # the factory's default for any U.S. citation, not read from the text
        out["court"] = court
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


def our_fields(c: Any, text: str) -> dict[str, Any]:
    kind = _OUR_KIND[c.form]
    out: dict[str, Any] = {"kind": kind}
    if kind in ("full", "short"):
        out["volume"] = c.volume
        out["reporter"] = _reporter(c.reporter)
    if kind == "full":
        out["page"] = c.page
    if kind in ("full", "short", "reference"):
        out["year"] = c.year
    if kind in ("full", "short"):
        court = c.court
        if court == "scotus" and not _COURT_IN_TEXT.search(text):
            court = None
        out["court"] = court
    if kind in ("full", "reference"):
        name = c.case_name
        if kind == "reference":
            out["plaintiff"] = out["defendant"] = None
            if name is not None:
                out["plaintiff"], out["defendant"] = _name(name.plaintiff), _name(name.defendant)
        else:
            out["plaintiff"] = _name(name.plaintiff) if name else None
            out["defendant"] = _name(name.defendant) if name else None
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


def compare(expected: list[dict[str, Any]], found: list[dict[str, Any]]) -> list[str]:
    """What differs, as readable lines (empty: exact)."""
    exp = [e for e in expected if e["kind"] in _CASE_KINDS]
    got = [f for f in found if f["kind"] in _CASE_KINDS]
    if len(exp) != len(got):
        return [f"count {len(got)} != {len(exp)}: {[f['kind'] for f in got]} vs {[e['kind'] for e in exp]}"]
    diffs = []
    for i, (e, f) in enumerate(zip(exp, got, strict=True)):
        for key in sorted(set(e) | set(f)):
            if e.get(key) != f.get(key):
                diffs.append(f"#{i} {key}: {f.get(key)!r} != {e.get(key)!r}")
    return diffs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eyecite-tests", type=Path, required=True, help="eyecite's tests/ folder")
    ap.add_argument("--show", type=int, default=30, help="list this many of our inexact pairs")
    ap.add_argument("--all", action="store_true", help="also list eyecite's inexact pairs")
    args = ap.parse_args()
    from eyecite import get_citations

    pairs = load_pairs(args.eyecite_tests)
    t0 = time.perf_counter()
    ours_ok = theirs_ok = ours_ok_kept = theirs_ok_kept = kept = 0
    shown: list[str] = []
    theirs_shown: list[str] = []
    groups: Counter[str] = Counter()
    for group, q, expected, kwargs in pairs:
        text = clean(q, kwargs)
        wrong = next((why for start, why in PEER_WRONG.items() if q.startswith(start)), None)
        exp = [expected_fields(c, text) for c in expected]
        ours = [our_fields(c, text) for c in extract_citations(text).citations]
        try:
            peer_kwargs = dict(kwargs)
            peer_kwargs["markup_text" if "html" in (kwargs.get("clean_steps") or []) else "plain_text"] = q
            found = get_citations(**peer_kwargs)
            theirs = [_eyecite_fields(c, text) for c in found]
        except Exception as exc:  # the peer's own failure counts against it
            theirs = [{"kind": f"error {exc!r}"}]
        d_ours, d_theirs = compare(exp, ours), compare(exp, theirs)
        ours_ok += not d_ours
        theirs_ok += not d_theirs
        if wrong is None:
            kept += 1
            ours_ok_kept += not d_ours
            theirs_ok_kept += not d_theirs
            if d_ours:
                groups[group] += 1
                shown.append(f"  [{group}] {text[:150]!r}\n      " + "\n      ".join(d_ours[:6]))
            if d_theirs:
                theirs_shown.append(f"  [{group}] {text[:150]!r}\n      " + "\n      ".join(d_theirs[:6]))
    n = len(pairs)
    secs = time.perf_counter() - t0
    print(f"eyecite's test_FindTest.py: {n} pairs ({n - kept} set aside as peer-wrong), {secs:.1f} s")
    print(
        f"  all pairs:           citecheck {ours_ok}/{n} = {100 * ours_ok / n:.1f} %, "
        f"eyecite {theirs_ok}/{n} = {100 * theirs_ok / n:.1f} %"
    )
    print(
        f"  peer-wrong set aside: citecheck {ours_ok_kept}/{kept} = {100 * ours_ok_kept / kept:.1f} %, "
        f"eyecite {theirs_ok_kept}/{kept} = {100 * theirs_ok_kept / kept:.1f} %"
    )
    for start, why in PEER_WRONG.items():
        print(f"  set aside: {start!r}: {why}")
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
