"""Build a realistic synthetic brief from REAL opinion text, for the benchmarks.

Other benches do ``from brief import build_brief``. The prose comes from the real opinions in
``../shared/corpus/courtlistener-bulk/opinions.csv`` (read at run time, never copied into the repo);
the citations are real case tuples from ``../shared/corpus/citations/legalcitebench-cases-A.jsonl`` and the
bulk ``citations.csv``, written the way briefs write them: full cites with pincites and court/date
parentheticals, explanatory parentheticals with quotes, Westlaw cites, string cites, ``Id.``, short forms
and ``supra``.
"""

from __future__ import annotations

import csv
import html
import json
import random
import re
import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from citecheck_testing import SHARED_CORPUS

_TAG = re.compile(r"<[^>]+>")
_BLOCK_END = re.compile(r"</(?:p|blockquote|h\d|li|div|article|section)>|<br\s*/?>", re.I)
_STAR = re.compile(r'<span class="star-pagination"[^>]*>[^<]*</span>')


def html_to_text(markup: str, *, keep_star_pages: bool = False) -> str:
    """Tag-stripped text, one paragraph per block element (blank line between)."""
    if not keep_star_pages:
        markup = _STAR.sub("", markup)
    markup = _BLOCK_END.sub("\n\n", markup)
    text = html.unescape(_TAG.sub("", markup))
    paras = [re.sub(r"[ \t]+", " ", p).strip() for p in re.split(r"\n\s*\n", text)]
    return "\n\n".join(p for p in paras if p)


@cache
def opinion_texts(corpus: Path = SHARED_CORPUS) -> tuple[str, ...]:
    """The plain text of every opinion in the CourtListener bulk sample."""
    path = corpus / "courtlistener-bulk" / "opinions.csv"
    if not path.exists():
        raise FileNotFoundError(
            f"real corpus not found at {path} (expected ../shared/corpus beside the checkout)"
        )
    csv.field_size_limit(sys.maxsize)
    with path.open(newline="", encoding="utf-8") as f:
        rows = csv.DictReader(f, quotechar='"', escapechar="\\", doublequote=False)
        return tuple(html_to_text(r["html_with_citations"]) for r in rows if r["html_with_citations"])


_SENT = re.compile(r"(?<=[a-z][.?!])\s+(?=[A-Z])")


@cache
def _sentences(corpus: Path = SHARED_CORPUS) -> tuple[str, ...]:
    """Plain prose sentences (no digits, so they carry no citations of their own)."""
    out = []
    for text in opinion_texts(corpus):
        for para in text.split("\n\n"):
            for s in _SENT.split(para):
                s = s.strip()
                if 40 <= len(s) <= 300 and not re.search(r"\d|§|\bId\b|supra|\bv\.", s) and s[-1] in ".?!":
                    out.append(s)
    return tuple(out)


def _lower_small(name: str) -> str:
    return re.sub(r"\b(Of|The|And|For|In|To)\b", lambda m: m[0].lower(), name)


@cache
def _cases(corpus: Path = SHARED_CORPUS) -> tuple[tuple[str, str, str, str], ...]:
    """(short party name, full case name, citation, year) of real cases."""
    out = []
    with (corpus / "citations" / "legalcitebench-cases-A.jsonl").open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            name = re.sub(r"\s+", " ", row["case_name"]).strip()
            parties = re.split(r"\s+v\.?\s+", name, maxsplit=1)
            if len(parties) != 2:
                continue
            p = [_lower_small(re.split(r",", x)[0].strip().title()) for x in parties]
            p = [
                re.sub(
                    r"\b(Petitioners?|Respondents?|Appellants?|Appellees?|Plaintiffs?|Defendants?)\b", "", x
                ).strip()
                for x in p
            ]
            if not all(p) or not re.fullmatch(r"[\w.'&, -]+", p[0] + p[1]):
                continue
            short = (
                p[0].split()[-1]
                if p[0].split()[-1] not in {"State", "People", "Commonwealth"}
                else p[1].split()[-1]
            )
            out.append((short, f"{p[0]} v. {p[1]}", row["citation"], row["year"]))
    return tuple(out)


_FED_COURTS = ("2d Cir.", "3d Cir.", "9th Cir.", "D.C. Cir.", "S.D.N.Y.", "N.D. Cal.", "D. Mass.", "5th Cir.")
_MONTHS = ("Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec.")
_SIGNALS = ("", "", "", "See ", "See also ", "Cf. ", "See, e.g., ")


def build_brief(words: int = 30_000, citations: int = 1_000, seed: int = 0) -> str:
    """A brief of about ``words`` words holding about ``citations`` citations (all forms), deterministic per seed."""
    rng = random.Random(seed)
    sents = _sentences()
    cases = _cases()
    cited: list[tuple[str, str, str, str, int]] = []  # short, name, cite, year, first page
    paras: list[str] = []
    n_words = n_cites = 0
    last: tuple[str, str, str, str, int] | None = None
    wl_counter = 1_000_000
    while n_words < words or n_cites < citations:
        para: list[str] = []
        para_words = 0
        while para_words < 110:
            s = rng.choice(sents)
            if n_cites < citations and n_cites * words <= (n_words + para_words) * citations:
                kind = rng.random()
                if kind < 0.40 or not cited:
                    short, name, cite, year = rng.choice(cases)
                    first = int(cite.split()[-1])
                    pin = first + rng.randint(0, 12)
                    end = pin + rng.randint(1, 5)
                    end_text = str(end)[-2:] if str(end)[:-2] == str(pin)[:-2] else str(end)
                    pin_text = f"{pin}" if rng.random() < 0.6 else f"{pin}–{end_text}"
                    expl = ""
                    if rng.random() < 0.3:
                        q = " ".join(rng.choice(sents).split()[:8]).rstrip(".,;")
                        expl = f" (holding that “{q}”)"
                    rec = (short, name, cite, year, first)
                    cited.append(rec)
                    last = rec
                    s = f"{s} {rng.choice(_SIGNALS)}*{name}*, {cite}, {pin_text} ({year}){expl}."
                elif kind < 0.50:
                    short, name = rng.choice(cases)[:2]
                    wl_counter += rng.randint(1, 9999)
                    year = rng.randint(2005, 2023)
                    date = f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}, {year}"
                    rec = (short, name, f"{year} WL {wl_counter}", str(year), 0)
                    last = rec
                    s = (
                        f"{s} {name}, {year} WL {wl_counter}, "
                        f"at *{rng.randint(1, 9)} ({rng.choice(_FED_COURTS)} {date})."
                    )
                elif kind < 0.70 and last is not None:
                    star = "*" if " WL " in last[2] else ""
                    page = last[4] + rng.randint(0, 9) if last[4] else rng.randint(2, 9)
                    s = f"{s} Id. at {star}{page}." if rng.random() < 0.8 else f"{s} Id."
                elif kind < 0.85:
                    rec = rng.choice(cited)
                    vol, rep_page = rec[2].split(" ", 1)
                    rep = rep_page.rsplit(" ", 1)[0]
                    s = f"{s} *{rec[0]}*, {vol} {rep} at {rec[4] + rng.randint(0, 9)}."
                    last = rec
                elif kind < 0.93:
                    rec = rng.choice(cited)
                    s = f"{s} {rec[0]}, supra, at {rec[4] + rng.randint(0, 9)}."
                    last = rec
                else:
                    a, b = rng.sample(cases, 2)
                    cited.extend([(*a, int(a[2].split()[-1])), (*b, int(b[2].split()[-1]))])
                    last = None
                    s = f"{s} See {a[1]}, {a[2]} ({a[3]}); {b[1]}, {b[2]} ({b[3]})."
                    n_cites += 1
                n_cites += 1
            para.append(s)
            para_words += len(s.split())
        text = " ".join(para)
        paras.append(text)
        n_words += len(text.split())
    return "\n\n".join(paras) + "\n"


if __name__ == "__main__":
    b = build_brief()
    print(f"{len(b.split())} words, {len(b)} characters, {b.count(chr(10) * 2) + 1} paragraphs")
