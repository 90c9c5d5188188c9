"""Statute and regulation citations checked with no index: titles that do not exist, and saying plainly
what was not checked; pure.

Offline and always, one thing is certain: the titles of the U.S. Code and the C.F.R. A U.S.C. or
C.F.R. citation to a title that does not exist is impossible (error). Every other statute citation is
reported as not checked, naming the code, unless a statute index covers its title (the index's own
checks then speak for it: ``CheckContext.statute_covered``). Nothing about a statute is silent.

The title lists, and why each bound is certain:

- **U.S. Code**: titles 1–54 (Office of the Law Revision Counsel, "Titles of the United States Code",
  https://uscode.house.gov/browse.xhtml). Title 53 is "[Reserved]" and has never held a section, so
  ``53 U.S.C.`` cannot be cited. Titles that were repealed and later reused (6: surety bonds until
  1947, domestic security since 2002; 34: navy until 1956, crime control since 2017) hold sections
  today, so an old citation to them is not flagged here (the index checks the section). Appendix
  titles (``50 U.S.C. App.``, title ``"50a"``) are never flagged: several existed and were emptied.
- **C.F.R.**: titles 1–50 (eCFR, https://www.ecfr.gov/api/versioner/v1/titles). Title 35 (Panama
  Canal) has been reserved since the canal's transfer in 1999, but older opinions cite it correctly,
  so it is not flagged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from citecheck.checks.base import CheckContext
from citecheck.extract.constitutions import us_provision_problem
from citecheck.extract.models import Citation, CiteForm, Statute, StatuteForm
from citecheck.findings import Evidence, Finding, Kind, make_finding
from citecheck.sources.statutes.records import LookupOutcome

#: (code, the titles that exist or once did, the reserved title never to hold a section, where the list comes from)
_TITLES: dict[str, tuple[range, frozenset[int], str, str]] = {
    "usc": (range(1, 55), frozenset({53}), "U.S. Code", "Office of the Law Revision Counsel's title list"),
    "cfr": (range(1, 51), frozenset(), "Code of Federal Regulations", "the eCFR's title list"),
}


def title_problem(statute: Statute) -> str | None:
    """Why a full U.S.C. / C.F.R. citation's title cannot exist, or None (other codes: never).

    >>> from citecheck.extract.models import Statute, StatuteForm
    >>> title_problem(Statute(form=StatuteForm.FULL, code="usc", title="55", section="100"))
    'the U.S. Code has titles 1 to 54 (title 53 is reserved and holds no sections); there is no title 55'
    >>> title_problem(Statute(form=StatuteForm.FULL, code="cfr", title="40", section="60.1")) is None
    True
    """
    known = _TITLES.get(statute.code or "")
    if known is None or statute.form is not StatuteForm.FULL or not statute.title:
        return None
    if not statute.title.isdigit():  # an appendix ("50a"), or a title we cannot read: not certain
        return None
    titles, reserved, name, _ = known
    n = int(statute.title)
    if n in titles and n not in reserved:
        return None
    span = f"titles {titles.start} to {titles.stop - 1}"
    extra = "".join(f" (title {r} is reserved and holds no sections)" for r in sorted(reserved))
    what = f"title {n} is reserved and holds no sections" if n in reserved else f"there is no title {n}"
    if n in reserved:
        return f"the {name} has {span}; {what}"
    return f"the {name} has {span}{extra}; {what}"


class StatuteTitleCheck:
    """``55 U.S.C. § 100``, ``51 C.F.R. § 1.1``: a title that does not exist (local, no lookup)."""

    id = "statute_title"
    local = True

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if c.form is not CiteForm.STATUTE or c.statute is None:
            return
        reason = title_problem(c.statute)
        if reason is None:
            return
        source = _TITLES[c.statute.code or ""][3]
        yield make_finding(
            Kind.IMPOSSIBLE_CITATION,
            c.span,
            f"Impossible citation: “{' '.join(c.text.split())}” cites a title that does not exist: {reason}.",
            evidence=Evidence(source=source, citation=str(c.statute), note=reason),
            citation_index=c.index,
        )


def describe_code(statute: Statute, *, article: bool = True) -> str:
    """The code in words for a reader: ``the U.S. Code``, ``Fla. Stat. (Florida)``.

    >>> from citecheck.extract.models import Statute, StatuteForm
    >>> describe_code(Statute(form=StatuteForm.FULL, code="Ky. Rev. Stat. Ann.", jurisdiction="Kentucky", section="1"))
    'Ky. Rev. Stat. Ann. (Kentucky)'
    >>> describe_code(Statute(form=StatuteForm.FULL, code="usc", section="1"), article=False)
    'U.S. Code'
    """
    if statute.kind == "act" and statute.code == "act":
        return (
            f"{statute.act_name} (an act the text does not name)"
            if statute.act_name == "the Act"
            else (f"the {statute.act_name}" if article else f"{statute.act_name}")
        )
    if statute.kind == "constitution" and statute.code == "Const.":
        return "a constitution the text does not name"
    if statute.kind == "session law" and not statute.jurisdiction:
        return f"{statute.code_text or statute.name} (session laws; the state is not named)"
    if statute.kind == "act" and statute.act_name:
        code = describe_code(replace(statute, kind="", act_name=None, act_section=None), article=article)
        return f"{code} ({statute.act_name})"
    known = _TITLES.get(statute.code or "")
    if known is not None:
        return f"the {known[2]}" if article else known[2]
    name = statute.name or "an unnamed code"
    if statute.jurisdiction and statute.jurisdiction not in name:
        return f"{name} ({statute.jurisdiction})"
    return name


def not_checked_reason(citation: Citation, statute: Statute | None, index_says: str = "") -> str:
    """Why a statute citation was not checked, naming its code (the message every edge shows).

    ``index_says``: the statute index's own reason when there is an index that does not hold the title
    ("the statute index does not hold 15 U.S.C.") or could not be read."""
    if statute is None:
        if citation.statute is not None and citation.statute.form is StatuteForm.ID:
            return "it refers to the authority cited before it, which is not a statute citecheck could name"
        return "its code is not named here and no earlier citation of this section names it"
    what = _WHAT.get(statute.kind, "regulations" if statute.regulation else "statutes")
    code = describe_code(statute)
    if (
        statute.code in _TITLES
        and index_says
        and not index_says.startswith(("the statute index", "statute index"))
    ):
        return (
            f"{index_says}, so the section was not looked up"  # the index holds the title: it has no sections
        )
    if statute.code in _TITLES and index_says:
        return f"{index_says} (`citecheck corpus sync --statutes` syncs every title), so the section was not looked up"
    if statute.code in _TITLES:
        return (
            f"no statute index covers {code} here (`citecheck corpus sync --statutes` builds one), "
            "so the section was not looked up"
        )
    return f"citecheck has no source for {code}; {what} there are not checked"


#: what citecheck does not check, by ``Statute.kind``
_WHAT = {
    "constitution": "constitutional provisions",
    "session law": "session laws",
    "act": "sections of acts",
    "chapter": "statutes",
    "title": "statutes",
}


class StatuteNotCheckedCheck:
    """Every statute citation no source covers, as information naming the code: never silent.

    One finding per full citation and per short form whose code is unknown; a short form that
    resolves to a full citation shares that citation's (its status still says "not checked")."""

    id = "statute_not_checked"
    local = False

    def run(self, ctx: CheckContext) -> Iterator[Finding]:
        c = ctx.citation
        if c.form is not CiteForm.STATUTE or c.statute is None or ctx.statute_covered:
            return
        statute = ctx.extraction.statute_of(c)
        if statute is not None and c.statute.form is not StatuteForm.FULL:
            return  # its full citation carries the finding
        if statute is not None and (title_problem(statute) is not None or us_provision_problem(statute)):
            return  # impossible already says more
        said = next(
            (
                a.reason
                for _, a in ctx.statutes
                if a.outcome is LookupOutcome.NOT_COVERED
                and a.reason
                and not a.reason.startswith(("no statute index", "the citation names no title"))
            ),
            "",
        )
        reason = not_checked_reason(c, statute, said)
        yield make_finding(
            Kind.STATUTE_NOT_CHECKED,
            c.span,
            f"“{' '.join(c.text.split())}” was not checked: {reason}. This is not a finding that it is wrong.",
            evidence=Evidence(
                source=None,
                citation=str(statute) if statute is not None else " ".join(c.text.split()),
                note=reason,
            ),
            citation_index=c.index,
        )
