"""The matter's court (the forum): from a declaration in the document, the settings, or the caption.

Precedence, most specific first: Markdown front matter (``court: nysd``) or a .docx custom document
property (handed in by the edge that read the file) → ``court`` in the settings → the caption.
A court may be given as a courts-db id (``nysd``), a Bluebook abbreviation (``S.D.N.Y.``) or a name
("Southern District of New York"). Pure: text and values in, a ``Forum`` out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citecheck.errors import ConfigError
from citecheck.jurisdiction.caption import caption_court, recognise_court
from citecheck.jurisdiction.hierarchy import court_node
from citecheck.jurisdiction.weight import Forum, Question

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_KEY_VALUE = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$", re.M)


@dataclass(frozen=True, slots=True, kw_only=True)
class Declared:
    """A court / question stated outright somewhere (front matter, settings, document property)."""

    court: str | None = None
    question: str | None = None
    law_state: str | None = None
    origin: str = "config"


def front_matter(text: str) -> Declared:
    """``court``, ``question`` and ``law`` (the state whose law governs) from Markdown front matter.

    >>> front_matter("---\\ncourt: nysd\\nquestion: state\\n---\\n# Brief").court
    'nysd'
    >>> front_matter("# Brief").court is None
    True
    """
    m = _FRONT_MATTER.match(text)
    if not m:
        return Declared(origin="front matter")
    values = {k.lower(): v.strip().strip("\"'") for k, v in _KEY_VALUE.findall(m.group(1))}
    return Declared(
        court=values.get("court") or None,
        question=values.get("question") or None,
        law_state=values.get("law") or values.get("law_state") or None,
        origin="front matter",
    )


def resolve_court(value: str) -> str | None:
    """A courts-db id for a court given as an id, a Bluebook abbreviation or a name.

    >>> resolve_court("nysd"), resolve_court("S.D.N.Y."), resolve_court("District of Columbia Court of Appeals")
    ('nysd', 'nysd', 'dc')
    """
    value = value.strip()
    if not value:
        return None
    if court_node(value) is not None:
        return value
    if court_node(value.lower()) is not None:
        return value.lower()
    from citecheck.extract.courts import court_id

    found = court_id(value)
    if found and court_node(found) is not None:
        return found
    return recognise_court(value if re.search(r"court|circuit", value, re.I) else f"{value} court")


def parse_question(value: str | None) -> Question | None:
    if value is None or not str(value).strip():
        return None
    try:
        return Question(str(value).strip().lower())
    except ValueError as exc:
        raise ConfigError(f'question must be "federal" or "state", not {value!r}') from exc


def _question_or_none(value: str | None) -> Question | None:
    try:
        return parse_question(value)
    except ConfigError:  # a typo in a document's front matter is not worth refusing the document for
        return None


#: Words that put a federal case in diversity (or otherwise on state law): the state's high court then
#: binds on that state's law (Erie R.R. Co. v. Tompkins, 304 U.S. 64, 78 (1938)).
_DIVERSITY = re.compile(
    r"\bdiversity\s+(?:of\s+citizenship|jurisdiction|case|action|suit)\b|\b(?:sitting|sits|sit)\s+in\s+diversity\b"
    r"|\b28\s*U\.\s?S\.\s?C\.(?:\s*A\.)?\s*§*\s*1332\b|\bErie\s+R(?:ailroad|\.\s?R\.)\s+(?:Co\.\s+)?v\.\s+Tompkins\b",
    re.I,
)


def _states() -> tuple[str, ...]:
    from citecheck.jurisdiction.hierarchy import _CIRCUIT_OF_STATE

    return tuple(sorted(_CIRCUIT_OF_STATE, key=len, reverse=True))


def diversity(text: str) -> tuple[str | None, str] | None:
    """``(state whose law governs or None, how we know)`` when the text shows a federal case in diversity.

    The state is the one whose law the text applies most often ("under Texas law", "Texas law governs",
    "applying New York law"); None when it names none (a court of appeals then follows the highest court of
    whichever state a cited case comes from).

    >>> diversity("Jurisdiction rests on diversity of citizenship. Under Texas law, the insurer must pay.")
    ('Texas', 'diversity jurisdiction in the text; Texas law governs')
    >>> diversity("A federal question.") is None
    True
    """
    m = _DIVERSITY.search(text)
    if m is None:
        return None
    names = "|".join(re.escape(s) for s in _states())
    counts: dict[str, int] = {}
    for found in re.finditer(
        rf"\b(?i:under|applying|apply|applies|governed\s+by|govern(?:s|ing)?|of|interpret(?:s|ing)?)\s+({names})\s+law\b"
        rf"|\b({names})\s+law\s+(?:governs|applies|controls)\b",
        text,
    ):
        state = found.group(1) or found.group(2)
        counts[state] = counts.get(state, 0) + 1
    state = max(counts, key=lambda k: counts[k]) if counts else None
    return state, "diversity jurisdiction in the text" + (f"; {state} law governs" if state else "")


def matter_forum(text: str, *, declared: tuple[Declared, ...] = ()) -> Forum | None:
    """The forum of a document: the first declaration that names a court we know, else the caption.

    ``declared`` are the edge's declarations in precedence order (document property, settings); the
    document's own front matter comes before them. A declared ``question`` applies whichever source
    named the court. An unrecognised declared court is skipped (the caption may still name it).
    """
    decls = (front_matter(text), *declared)
    question = next((q for d in decls if (q := _question_or_none(d.question)) is not None), None)
    law_state = next((d.law_state for d in decls if d.law_state), None)
    for d in decls:
        if d.court:
            cid = resolve_court(d.court)
            if cid is not None:
                return _forum(cid, question, d.origin, law_state, text)
    found = caption_court(text)
    if found is None:
        return None
    return _forum(found[0], question, "caption", law_state, text)


def _forum(
    court_id: str, question: Question | None, origin: str, law_state: str | None, text: str = ""
) -> Forum | None:
    """The forum; a federal court's question, when no one declared it, is a state-law one where the text
    shows diversity jurisdiction (issue 36: the Texas Supreme Court was "persuasive" in a Fifth Circuit
    diversity case on Texas law)."""
    node = court_node(court_id)
    if node is None:
        return None
    how = None
    if question is None and node.federal and (found := diversity(text)) is not None:
        question, how = Question.STATE, found[1]
        law_state = law_state or found[0]
    default = Question.FEDERAL if node.federal else Question.STATE
    return Forum(
        court=node, question=question or default, origin=origin, law_state=law_state, question_origin=how
    )
