"""Excerpts whose right correction is known: what ``citecheck eval`` scores fixes on; pure.

``citecheck eval make --type fixes`` writes them. Each excerpt quotes a real sentence of a corpus case
(the ``_usable`` cases of ``dataset.py``) and gets exactly one slip whose right fix we know:

* ``invented-citation`` — the right case named (and quoted) under a citation that does not exist: a
  series that was never published, a volume or page past the end, a pin page given as the first page,
  a digit off or two digits transposed in the volume or the page, the other series of the same reporter
  (A.3d for A.2d), the page of the parallel citation used with this reporter. The fix: the case's real
  citation.
* ``wrong-citation`` — the right case named and quoted under *another corpus case's* citation (the
  commonest slip in real briefs). The fix: the named case's citation, never the other case's name.
* ``wrong-name`` — the right citation and quote under another corpus case's name. The fix: the name.

A third of these cite without a quotation (a proposition instead: then nothing but the name and the
citation can decide), and half name the court in the parenthetical as the Bluebook does (``(D.C. 1953)``).

and controls on which no fix naming a corpus case may be offered:

* ``unknown-case`` — a real case we do not hold (LegalCiteBench) named under a citation that falls in
  the middle of a corpus case (the README's *Harmon v. Capital Transit Co.*), with no quote: the
  finding stands, but nothing relates the draft to the case whose pages it cites;
* ``clean`` — a correct excerpt; ``uncovered`` — a real case we do not hold, cited correctly.

Every line keeps the LePhantomCite keys (``text``, ``hallucinations``) and adds ``fix``:
``{"kind", "name", "citations"}`` — the name and every citation of the case the draft meant (empty for
a control).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from citecheck import reporters as reporter_limits
from citecheck.checks.name_match import NameVerdict, compare_names
from citecheck.evaluation.dataset import (
    _PROPOSITIONS,
    CaseSample,
    RealCase,
    _excerpt,
    _next_series,
    _Passage,
    _Usable,
    _usable,
)

FIX_KINDS = ("invented-citation", "wrong-citation", "wrong-name")
CONTROL_KINDS = ("unknown-case", "clean", "uncovered")

#: How an invented citation is made, in rotation.
INVENTIONS = (
    "series",
    "volume-past-end",
    "page-past-end",
    "pin-as-first-page",
    "volume-digit",
    "page-digit",
    "transposed",
    "other-series",
    "parallel-page",
)

#: Share of each kind in a set (the rest of the rotation's slots).
_SHARES = (
    ("invented-citation", 0.30),
    ("wrong-citation", 0.25),
    ("wrong-name", 0.25),
    ("unknown-case", 0.08),
    ("clean", 0.07),
    ("uncovered", 0.05),
)


def _cite(u: _Usable) -> str:
    return f"{u.cite.volume} {u.cite.reporter} {u.cite.page}"


def _truth(kind: str, u: _Usable | None) -> dict[str, object]:
    if u is None:
        return {"kind": kind, "name": None, "citations": []}
    return {"kind": kind, "name": u.name, "citations": [str(c) for c in u.record.citations]}


def _digit_off(s: str, rng: random.Random) -> str:
    i = rng.randrange(len(s))
    choices = [d for d in "0123456789" if d != s[i] and not (i == 0 and d == "0")]
    return s[:i] + rng.choice(choices) + s[i + 1 :]


def _transposed(s: str, rng: random.Random) -> str | None:
    pairs = [i for i in range(len(s) - 1) if s[i] != s[i + 1] and not (i == 0 and s[1] == "0")]
    if not pairs:
        return None
    i = rng.choice(pairs)
    return s[:i] + s[i + 1] + s[i] + s[i + 2 :]


def _other_series(reporter: str) -> str | None:
    """The same reporter's neighbouring series that exists: A.2d → A.3d or A., F.3d → F.2d."""
    m = re.match(r"^(.*?)\s*(2d|3d|4th)?$", reporter)
    if not m:
        return None
    base, cur = m.group(1).strip(), m.group(2)
    order = ["", "2d", "3d", "4th"]
    at = order.index(cur) if cur in order else 0
    for j in (at + 1, at - 1):
        if 0 <= j < len(order):
            cand = f"{base}{order[j]}" if order[j] and base.endswith(".") else f"{base} {order[j]}".strip()
            if cand != reporter and reporter_limits.is_known_reporter(cand):
                return cand
    return None


def _invented(u: _Usable, p: _Passage, how: str, rng: random.Random) -> str | None:
    """The citation core ``how`` makes of ``u``'s (None when it cannot be made for this case)."""
    make = _INVENT.get(how)
    return make(u, p, rng) if make is not None else None


def _series(u: _Usable, p: _Passage, rng: random.Random) -> str | None:
    fake = _next_series(u.cite.reporter)
    return f"{u.cite.volume} {fake} {u.cite.page}" if fake else None


def _volume_past_end(u: _Usable, p: _Passage, rng: random.Random) -> str | None:
    rep = u.cite.reporter
    if rep not in reporter_limits.MAX_VOLUME:
        return None
    return f"{reporter_limits.MAX_VOLUME[rep] + rng.randint(1, 400)} {rep} {u.cite.page}"


def _page_past_end(u: _Usable, p: _Passage, rng: random.Random) -> str | None:
    if not reporter_limits.page_problem(u.cite.reporter, "99999"):
        return None
    return f"{u.cite.volume} {u.cite.reporter} {rng.randint(20000, 89999)}"


def _pin_as_first_page(u: _Usable, p: _Passage, rng: random.Random) -> str | None:
    vol, rep = u.cite.volume, u.cite.reporter
    inner = [pg for pg in p.pages if pg.isdigit() and u.first < int(pg) <= u.last]
    if inner:
        return f"{vol} {rep} {inner[0]}"
    return f"{vol} {rep} {rng.randint(u.first + 1, u.last)}" if u.last > u.first else None


def _volume_digit(u: _Usable, p: _Passage, rng: random.Random) -> str | None:
    return f"{_digit_off(u.cite.volume, rng)} {u.cite.reporter} {u.cite.page}"


def _page_digit(u: _Usable, p: _Passage, rng: random.Random) -> str | None:
    return f"{u.cite.volume} {u.cite.reporter} {_digit_off(u.cite.page, rng)}"


def _transposed_digits(u: _Usable, p: _Passage, rng: random.Random) -> str | None:
    vol, rep, page = u.cite.volume, u.cite.reporter, u.cite.page
    parts = ["volume", "page"]
    rng.shuffle(parts)
    for part in parts:
        t = _transposed(vol if part == "volume" else page, rng)
        if t is not None:
            return f"{t} {rep} {page}" if part == "volume" else f"{vol} {rep} {t}"
    return None


def _in_other_series(u: _Usable, p: _Passage, rng: random.Random) -> str | None:
    other = _other_series(u.cite.reporter)
    return f"{u.cite.volume} {other} {u.cite.page}" if other else None


def _parallel_page(u: _Usable, p: _Passage, rng: random.Random) -> str | None:
    rep, page = u.cite.reporter, u.cite.page
    for c in u.record.citations:
        if c.reporter != rep and c.page.isdigit() and c.page != page:
            return f"{u.cite.volume} {rep} {c.page}"
    return None


#: How each way of inventing (``INVENTIONS``) makes a citation no case has from a real one.
_INVENT: dict[str, Callable[[_Usable, _Passage, random.Random], str | None]] = {
    "series": _series,
    "volume-past-end": _volume_past_end,
    "page-past-end": _page_past_end,
    "pin-as-first-page": _pin_as_first_page,
    "volume-digit": _volume_digit,
    "page-digit": _page_digit,
    "transposed": _transposed_digits,
    "other-series": _in_other_series,
    "parallel-page": _parallel_page,
}


#: Share of fix-kind excerpts that state a proposition instead of quoting (``"quoted": false``).
UNQUOTED_SHARE = 1 / 3


def _court(u: _Usable) -> str | None:
    """The Bluebook abbreviation of the case's court (courts-db), for a parenthetical."""
    from citecheck.checks.corrections.edits import court_string

    return court_string(u.record.court_id) if u.record.court_id else None


def _written(
    u: _Usable,
    p: _Passage,
    rng: random.Random,
    *,
    quoted: bool,
    court: bool,
    name: str | None = None,
    cite_core: str | None = None,
) -> tuple[str, str]:
    """An excerpt citing ``u`` (``name``, ``cite_core`` as ``_excerpt``'s), quoting or stating a
    proposition, with or without the court in the parenthetical."""
    text, core = _excerpt(u, p, rng, name=name, cite_core=cite_core)
    if not quoted:
        cite = text[text.index(name or u.name, text.index('." ')) :]
        text = f"{rng.choice(_PROPOSITIONS)} {cite}"
    where = _court(u) if court else None
    if where:
        text = text[: text.rindex("(")] + f"({where} " + text[text.rindex("(") + 1 :]
    return text, core


def make_fix_dataset(
    samples: Sequence[CaseSample],
    real_cases: Sequence[RealCase] = (),
    *,
    n: int = 200,
    seed: int = 0,
) -> list[dict[str, object]]:
    """``n`` excerpts of the kinds in the module docstring, shares as in ``_SHARES``; reproducible."""
    usable = [u for s in samples if (u := _usable(s)) is not None]
    if len(usable) < 2:
        return []
    maker = _Maker(random.Random(seed), samples, usable, real_cases)
    kinds = [k for k, share in _SHARES for _ in range(max(1, round(n * share)))]
    if not real_cases:
        kinds = [k for k in kinds if k not in ("unknown-case", "uncovered")]
    out: list[dict[str, object]] = []
    i = 0
    while len(out) < n and i < n * 20:
        kind = kinds[i % len(kinds)]
        u = usable[(i * 7 + seed) % len(usable)]
        i += 1
        made = maker.row(kind, u)
        if made is None:
            continue
        row, meant = made
        row.update(
            id=f"fx{len(out):04d}",
            injected=kind if kind in FIX_KINDS or kind == "unknown-case" else None,
            case=meant.record.id if meant is not None else None,
            fix=_truth(kind, meant),
        )
        out.append(row)
    maker.rng.shuffle(out)
    keys = ("id", "text", "hallucinations", "injected", "case", "fix", "invention", "quoted")
    return [{k: r[k] for k in keys if k in r} for r in out]


#: A made row, and the case of ours its citation stands for (None: none of ours).
_Made = tuple[dict[str, object], "_Usable | None"] | None


class _Maker:
    """The rows of ``make_fix_dataset``, one kind each, drawing from one random stream in a fixed order (the
    dataset is reproducible from its seed)."""

    def __init__(
        self,
        rng: random.Random,
        samples: Sequence[CaseSample],
        usable: list[_Usable],
        real_cases: Sequence[RealCase],
    ) -> None:
        self.rng, self.samples, self.usable, self.real_cases = rng, samples, usable, real_cases
        #: every citation the corpus holds: an invented one must be none of them
        self.held = {str(c) for x in usable for c in x.record.citations} | {
            str(c) for x in samples for c in x.record.citations
        }
        self.inventions = 0  # rows invented so far: the next one takes the next way of inventing

    def row(self, kind: str, u: _Usable) -> _Made:
        """A row of ``kind`` built on ``u`` (None: ``u`` cannot make one)."""
        rng = self.rng
        p = rng.choice(u.passages)
        quoted = rng.random() >= UNQUOTED_SHARE
        court = rng.random() < 0.5
        made: _Made = None
        if kind == "invented-citation":
            made = self._invented(u, p, quoted, court)
        elif kind in ("wrong-citation", "wrong-name"):
            made = self._wrong(kind, u, p, quoted, court)
        elif kind == "unknown-case":
            made = self._unknown_case(u)
        elif kind == "clean":
            made = {"text": _excerpt(u, p, rng)[0], "hallucinations": {}}, None
        elif kind == "uncovered":
            rc = rng.choice(self.real_cases)
            made = (
                {
                    "text": f"{rng.choice(_PROPOSITIONS)} {rc.name}, {rc.citation} ({rc.year}).",
                    "hallucinations": {},
                },
                None,
            )
        if made is not None and kind in FIX_KINDS:
            made[0]["quoted"] = quoted
        return made

    def _invented(self, u: _Usable, p: _Passage, quoted: bool, court: bool) -> _Made:
        """A citation no case has, made one of the ``INVENTIONS`` ways (the next that works on ``u``)."""
        for attempt in range(len(INVENTIONS)):
            how = INVENTIONS[(self.inventions + attempt) % len(INVENTIONS)]
            core = _invented(u, p, how, self.rng)
            if core is not None and core not in self.held and core != _cite(u):
                self.inventions += 1
                text, core = _written(u, p, self.rng, quoted=quoted, court=court, cite_core=core)
                return {"text": text, "hallucinations": {core: "nonexistent-case"}, "invention": how}, u
        return None

    def _wrong(self, kind: str, u: _Usable, p: _Passage, quoted: bool, court: bool) -> _Made:
        """``u``'s passage under another case's name, or another case's citation under ``u``'s name."""
        others = [
            o
            for o in self.usable
            if o.record.id != u.record.id
            and compare_names(o.name, u.record.names).verdict is NameVerdict.MISMATCH
            and compare_names(u.name, o.record.names).verdict is NameVerdict.MISMATCH
        ]
        if not others:
            return None
        rng = self.rng
        o = rng.choice(others)
        if kind == "wrong-name":
            text, _ = _written(u, p, rng, quoted=quoted, court=court, name=o.name)
            return {"text": text, "hallucinations": {o.name: "name-mismatch"}}, u
        year = rng.choice((u.year, o.year))
        text, _ = _written(u, p, rng, quoted=quoted, court=court, cite_core=_cite(o))
        text = text.replace(f" {u.year}).", f" {year}).").replace(f"({u.year}).", f"({year}).")
        return {"text": text, "hallucinations": {u.name: "name-mismatch"}}, u

    def _unknown_case(self, u: _Usable) -> _Made:
        """A real case none of ours is, cited at a page inside ``u`` (no case of ours is the one meant)."""
        rng = self.rng
        rc = rng.choice(self.real_cases)
        unrelated = all(
            compare_names(rc.name, s.record.names).verdict is NameVerdict.MISMATCH for s in self.samples
        )
        if not (unrelated and u.last - u.first >= 2):
            return None
        core = f"{u.cite.volume} {u.cite.reporter} {rng.randint(u.first + 1, u.last - 1)}"
        text = f"{rng.choice(_PROPOSITIONS)} {rc.name}, {core} ({rc.year})."
        return {"text": text, "hallucinations": {core: "nonexistent-case"}}, None


__all__ = ["CONTROL_KINDS", "FIX_KINDS", "INVENTIONS", "make_fix_dataset"]
