"""Near misses: the citations a draft most likely meant when it wrote this one, and how two relate; pure.

A digit off or two digits transposed in the volume or the page, the other series of the same reporter
(F.3d for F.2d), a pin page given as the first page, the parallel citation's page used with the other
reporter. ``variants`` lists the citations to look for (on this machine only: they are many);
``relation`` says in words how a case's citation relates to the one the draft wrote, or None.
"""

from __future__ import annotations

from collections.abc import Sequence

from citecheck.reporters import invented_series, normalise_reporter, series_siblings
from citecheck.sources.models import CaseCite, CiteKey

#: Variants of one citation looked for at most (digit slips in a long page number are many).
MAX_VARIANTS = 80


def _digit_slips(s: str) -> list[tuple[str, str]]:
    """``(variant, what slipped)``: each digit replaced, two neighbours swapped, one digit dropped.

    >>> slips = [v for v, _ in _digit_slips("45")]  # written "45" for: 15 … 95, 40 … 49, 54, 5, 4
    >>> slips[:8]
    ['15', '25', '35', '55', '65', '75', '85', '95']
    >>> slips[8:]
    ['40', '41', '42', '43', '44', '46', '47', '48', '49', '54', '5', '4']
    """
    if not s.isdigit():
        return []
    out: list[tuple[str, str]] = []
    for i, d in enumerate(s):
        for r in "0123456789":
            if r != d and not (i == 0 and r == "0"):
                out.append((s[:i] + r + s[i + 1 :], "a digit off"))
    for i in range(len(s) - 1):
        if s[i] != s[i + 1] and not (i == 0 and s[i + 1] == "0"):
            out.append((s[:i] + s[i + 1] + s[i] + s[i + 2 :], "two digits transposed"))
    if len(s) > 1:
        for i in range(len(s)):
            v = s[:i] + s[i + 1 :]
            if not v.startswith("0"):
                out.append((v, "a digit added"))  # ``s`` has one digit more than ``v``
    return list(dict.fromkeys(out))


def variants(key: CiteKey) -> list[tuple[CiteKey, str]]:
    """Citations one slip away from ``key``, with the slip in words; the likeliest kinds first."""
    out: list[tuple[CiteKey, str]] = []
    for other in series_siblings(key.reporter):
        out.append((CiteKey(key.volume, other, key.page), f"the wrong series ({key.reporter} for {other})"))
    for v, why in _digit_slips(key.page):
        out.append((CiteKey(key.volume, key.reporter, v), f"{why} in the page ({key.page} for {v})"))
    for v, why in _digit_slips(key.volume):
        out.append((CiteKey(v, key.reporter, key.page), f"{why} in the volume ({key.volume} for {v})"))
    seen: set[CiteKey] = set()
    unique = []
    for k, why in out:
        if k != key and k not in seen:
            seen.add(k)
            unique.append((k, why))
    return unique[:MAX_VARIANTS]


def _slip(written: str, right: str) -> str | None:
    """The slip that makes ``written`` of ``right`` (a digit off, transposed, dropped or added)."""
    for v, why in _digit_slips(written):
        if v == right:
            return why
    if len(written) + 1 == len(right) and any(
        right[:i] + right[i + 1 :] == written for i in range(len(right))
    ):
        return "a digit dropped"
    return None


def relation(written: CiteKey, cite: CaseCite, parallels: Sequence[CaseCite] = ()) -> str | None:
    """How the draft's citation ``written`` relates to a case's citation ``cite`` (its other citations
    ``parallels``), in words; None when it is not one slip away.

    >>> relation(CiteKey("100", "A.2d", "541"), CaseCite(volume="100", reporter="A.2d", page="450"))
    >>> relation(CiteKey("100", "A.2d", "405"), CaseCite(volume="100", reporter="A.2d", page="450"))
    'two digits transposed in the page (405 for 450)'
    >>> relation(CiteKey("100", "A.2d", "451"), CaseCite(volume="100", reporter="A.2d", page="450", last_page="452"))
    'the pin page 451 given as the first page (the case begins at 450)'
    """
    return (
        _page_slip(written, cite) or _series_slip(written, cite) or _parallel_slip(written, cite, parallels)
    )


def _page_slip(written: CiteKey, cite: CaseCite) -> str | None:
    """The page (a pin page given as the first, a digit off) or the volume one slip from the case's."""
    if written.reporter != cite.reporter:
        return None
    if written.volume == cite.volume and written.page != cite.page:
        if written.page.isdigit() and cite.page.isdigit() and (cite.last_page or "").isdigit():
            if int(cite.page) < int(written.page) <= int(cite.last_page or 0):
                return f"the pin page {written.page} given as the first page (the case begins at {cite.page})"
        why = _slip(written.page, cite.page)
        if why:
            return f"{why} in the page ({written.page} for {cite.page})"
    if written.page == cite.page and written.volume != cite.volume:
        why = _slip(written.volume, cite.volume)
        if why:
            return f"{why} in the volume ({written.volume} for {cite.volume})"
    return None


def _series_slip(written: CiteKey, cite: CaseCite) -> str | None:
    """The same volume and page in another series of the reporter, or in a series that does not exist."""
    if written.volume != cite.volume or written.page != cite.page:
        return None
    if written.reporter in series_siblings(cite.reporter):
        return f"the wrong series ({written.reporter} for {cite.reporter})"
    base = invented_series(written.reporter)
    if base is not None and cite.reporter in {
        normalise_reporter(base),
        *series_siblings(normalise_reporter(base)),
    }:
        return f"a series that does not exist ({written.reporter} for {cite.reporter})"
    return None


def _parallel_slip(written: CiteKey, cite: CaseCite, parallels: Sequence[CaseCite]) -> str | None:
    """The volume and page, or the page, of one of the case's parallel citations used with this reporter."""
    others = [p for p in parallels if p.reporter != written.reporter and p.key != cite.key]
    for p in others:
        if written.volume == p.volume and written.page == p.page:
            return f"the volume and page of the parallel citation {p} used with {written.reporter}"
    for p in others:
        if written.page == p.page and written.reporter == cite.reporter:
            return f"the page of the parallel citation {p} used with {cite.reporter}"
    return None


__all__ = ["MAX_VARIANTS", "relation", "variants"]
