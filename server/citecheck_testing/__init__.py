"""Helpers shared by tests/ and bench/: where the real corpus lives (never shipped, never copied)."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
#: ../shared/corpus beside the checkout; ``CITECHECK_SHARED_CORPUS`` points elsewhere (tests/test_bare_clone.py
#: points it at nothing, to see the suite as a clone with nothing beside it sees it)
SHARED_CORPUS = Path(
    os.environ.get("CITECHECK_SHARED_CORPUS") or (REPO_ROOT / ".." / "shared" / "corpus")
).resolve()


def shared_corpus_path(*parts: str) -> Path:
    """Path inside ../shared/corpus; skips the calling test with a clear reason when absent."""
    path = SHARED_CORPUS.joinpath(*parts)
    if not path.exists():
        import pytest

        pytest.skip(f"real corpus not available at {path} (expected ../shared/corpus beside the checkout)")
    return path


def make_citation(
    text: str,
    core: str,
    *,
    index: int = 0,
    occurrence: int = 0,
    form: str = "full",
    name: str | None = None,
    pin: str | None = None,
    quotes: tuple[str, ...] = (),
    year: int | None = None,
    court: str | None = None,
    parentheticals: tuple[str, ...] = (),
    antecedent: int | None = None,
    database: str | None = None,
    volume: str | None = None,
    reporter: str | None = None,
    page: str | None = None,
):  # -> citecheck.extract.models.Citation
    """A ``Citation`` for the ``occurrence``-th ``core`` in ``text``, spans computed from the text.

    For checks and pipeline tests that must not depend on the extractor. ``pin`` is the pin cite as
    written after the core ("1006" or "1006–07" or "*3"), found after the core; ``quotes`` are found
    anywhere in the text; ``volume``/``reporter``/``page`` default to splitting a full core
    ("100 A.2d 36") on whitespace.

    >>> c = make_citation("See Roe v. Wade, 410 U.S. 113, 116 (1973).", "410 U.S. 113", name="Roe v. Wade", pin="116")
    >>> (c.volume, c.reporter, c.page, c.pincite.parts[0].first, c.case_name.span.start)
    ('410', 'U.S.', '113', '116', 4)
    """
    from citecheck.extract.models import (
        CaseName,
        Citation,
        CiteForm,
        Database,
        Parenthetical,
        Pincite,
        PinPage,
        Quote,
    )
    from citecheck.spans import Span

    def find(needle: str, start: int = 0, nth: int = 0) -> Span:
        pos = start - 1
        for _ in range(nth + 1):
            pos = text.find(needle, pos + 1)
            if pos < 0:
                raise ValueError(f"{needle!r} not in text")
        return Span(pos, pos + len(needle))

    span = find(core, 0, occurrence)
    cform = CiteForm(form)
    if cform is CiteForm.FULL and volume is None and reporter is None and page is None and database is None:
        parts = core.split()
        volume, reporter, page = parts[0], " ".join(parts[1:-1]), parts[-1]
    case_name = None
    full_start = span.start
    if name:
        name_at = text.rfind(name, 0, span.start)
        if name_at < 0:
            raise ValueError(f"{name!r} not before {core!r}")
        ns = Span(name_at, name_at + len(name))
        case_name = CaseName(text=name, span=ns)
        full_start = ns.start
    pincite = None
    end = span.end
    if pin:
        ps = find(pin, span.end if cform is CiteForm.FULL else span.start)
        elems = []
        for raw in pin.split(","):
            raw = raw.strip()
            star = raw.startswith("*")
            body = raw.lstrip("*")
            foot = None
            if " n." in body:
                body, foot = body.split(" n.", 1)
            first, _, last = body.replace("-", "–").partition("–")
            if last and len(last) < len(first):
                last = first[: len(first) - len(last)] + last
            es = find(raw, ps.start)
            elems.append(PinPage(first=first, last=last or None, footnote=foot, star=star, span=es))
        pincite = Pincite(text=pin, span=ps, parts=tuple(elems))
        end = ps.end
    qs = tuple(Quote(text=q, span=find(q)) for q in quotes)
    date_span = None
    if year is not None:
        m = text.find(f"{year})", end)
        if m >= 0:
            date_span = Span(text.rfind("(", 0, m), m + len(str(year)) + 1)
            end = date_span.end
    parens = tuple(Parenthetical(text=p, span=find(f"({p})")) for p in parentheticals)
    return Citation(
        index=index,
        form=cform,
        span=span,
        full_span=Span(full_start, max(end, span.end)),
        text=core,
        volume=volume,
        reporter=reporter,
        reporter_as_written=reporter,
        page=page,
        database=Database(database) if database else None,
        case_name=case_name,
        pincite=pincite,
        court=court,
        year=year,
        date_span=date_span,
        parentheticals=parens,
        quotes=qs,
        group=index if cform is CiteForm.FULL else None,
        antecedent=antecedent,
    )


@contextmanager
def loopback_tcp(
    serve: Callable[[socket.socket], None] | None = None,
) -> Iterator[tuple[str, list[socket.socket]]]:
    """A raw TCP server on 127.0.0.1 for bad-network tests: yields its ``http://127.0.0.1:PORT/`` URL
    and the connections it accepted. Each connection is handed to ``serve`` in a thread; with no
    ``serve`` it is held open and never answered (a network that drops packets, as a client sees it).
    Everything is closed on exit."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def run() -> None:
        srv.settimeout(0.05)
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            accepted.append(conn)
            if serve is not None:
                threading.Thread(target=serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}/", accepted
    finally:
        stop.set()
        thread.join(1)
        for conn in accepted:
            with suppress(OSError):
                conn.close()
        srv.close()


def has_shared_corpus() -> bool:
    """Whether ../shared/corpus is beside the checkout (it is in CI; a clone has nothing beside it)."""
    return all(SHARED_CORPUS.joinpath(part).exists() for part in ("cap-static", "courtlistener-bulk"))


def shared_corpus_or_empty(path: Path) -> Path:
    """A corpus at ``path``: the real samples of ../shared/corpus when they are there, else an empty one.

    For a fixture many tests share (a language server, ``citecheck serve``): what they test of the
    protocol, the encodings or the security needs no case, and runs on a bare clone too. A test that
    needs the real cases says so inside itself with ``shared_corpus_path(...)``, which skips it there
    with the reason (issue 36: 48 language-server tests skipped for one fixture)."""
    if has_shared_corpus():
        return import_shared_corpus(path)
    from citecheck.sources.corpus import Corpus

    Corpus(path).close()
    return path


def import_shared_corpus(path: Path) -> Path:
    """A corpus at ``path`` holding the CAP 100 A.2d fixture and the CourtListener bulk sample of
    ../shared/corpus (a test calling it is skipped when they are absent)."""
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    corpus = Corpus(path)
    for part in ("cap-static", "courtlistener-bulk"):
        import_path(corpus, shared_corpus_path(part))
    return path


#: Pieces hostile drafts are made of, for the fuzz test and ``bench/robustness.py``: real citation
#: shapes, short forms, quotes, and what breaks naive code (lone surrogates, control characters,
#: CR/LF mixes, combining marks, right-to-left text, zero-width joiners, very long tokens).
HOSTILE_FRAGMENTS: tuple[str, ...] = (
    "See Savage v. Parks, 100 A.2d 450, 451 (D.C. Mun. App. 1953). ",
    "Roe v. Wade, 410 U.S. 113, 120 (1973)",
    "Id. at ",
    "id. ",
    "Id.",
    "Ibid. ",
    "supra, at 12. ",
    "See id. at 451–52. ",
    "100 A.2d 450",
    "100 A.2d at 451",
    "64 F.4th 512 (D.C. Cir. 2001)",
    "33 Umbrella 422",
    "2018 IL App (1st) 152522",
    "2020 WL 1234567",
    "___ U.S. ___",
    "5 U.S. (1 Cranch) 137",
    '"Nothing can be clearer, we think, than the right of a purchaser"',
    "“curly ",
    "” ",
    "‘",
    "'",
    "[a]lteration",
    " . . . ",
    "…",
    "(citation omitted)",
    "(cleaned up)",
    "(quoting ",
    "(per curiam)",
    "\ud800",
    "\udfff",
    "\x00",
    "\x0b",
    "\x0c",
    "\u2028",
    "\u2029",
    "\r",
    "\n",
    "\r\n",
    "\t",
    "\u200d",
    "\u202e",
    "\ufeff",
    "\u0301",
    "😀",
    "§ 1983",
    "¶ 12",
    "*",
    "_",
    "**",
    "# ",
    "> ",
    "1.",
    "(",
    ")",
    "[",
    "]",
    "v. ",
    "In re ",
    "Ex parte ",
    "et al., ",
    ", ",
    "; ",
    ": ",
    " ",
    "0",
    "999999999999999999999",
    "x" * 300,
)
