"""The fixed, versioned prompt for the holding judge, its JSON schema, and validation of its answers.

Change the prompt text or the schema → bump ``PROMPT_VERSION``: the judgment cache keys on it, so old
answers are not reused for a new question. The fixed text comes first and the variable parts last, so a
server with prefix caching (vLLM) reuses the system prompt across requests. Pure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from citecheck.errors import ModelBadAnswer
from citecheck.holdings.models import Claim, Judgment, Misuse, Passage, Support

PROMPT_VERSION = "holding-v1"
MAX_QUOTE_CHARS = 600
MAX_RATIONALE_CHARS = 1000

SYSTEM_PROMPT = """\
You are a skeptical senior litigator reviewing opposing counsel's brief. For one citation you get the \
proposition the brief cites the case for and excerpts of the case's opinion. Decide whether the excerpts \
support the proposition. Be strict: a court's holding is not the same as its dictum, a narrow holding does \
not support a broad rule, and a holding on a different issue supports nothing. If the excerpts say the \
opposite of the proposition, answer "contradicted".

Answer with one JSON object and nothing else:
{"support": "supported" | "partly" | "not-supported" | "contradicted",
 "misuse": "none" | "overstated-holding" | "dictum-as-holding" | "different-issue" | "reversed-meaning" | \
"wrong-party-or-facts",
 "supporting_quote": "<the sentence of the excerpts that decides the question, copied word for word; \
empty if there is none>",
 "rationale": "<one sentence>"}
Copy the supporting_quote exactly from the excerpts. Never write a quote that is not in the excerpts."""

JUDGMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "support": {"type": "string", "enum": [s.value for s in Support]},
        "misuse": {"type": "string", "enum": [m.value for m in Misuse]},
        # no maxLength: llama.cpp turns it into a grammar with hundreds of repetitions (minutes per answer);
        # the lengths are enforced by parse_judgment instead
        "supporting_quote": {"type": "string"},
        "rationale": {"type": "string"},
    },
    "required": ["support", "misuse", "supporting_quote", "rationale"],
    "additionalProperties": False,
}


def response_format_schema() -> dict[str, Any]:
    """``response_format`` asking for the schema (vLLM, llama.cpp and OpenAI accept this form)."""
    return {
        "type": "json_schema",
        "json_schema": {"name": "holding_judgment", "schema": JUDGMENT_SCHEMA, "strict": True},
    }


def response_format_object() -> dict[str, Any]:
    """The fallback for servers without ``json_schema``: a JSON object (llama.cpp also honours ``schema``)."""
    return {"type": "json_object", "schema": JUDGMENT_SCHEMA}


def build_messages(claim: Claim, passages: Sequence[Passage]) -> list[dict[str, str]]:
    """The chat messages for one claim: the fixed system prompt, then the case, proposition and excerpts.

    Only the proposition, the case's name and citation, and opinion passages go to the endpoint.

    >>> from citecheck.spans import Span
    >>> c = Claim(citation_index=0, span=Span(0, 1), proposition="P.", case_id="x", case_name="A v. B", cite="1 U.S. 1")
    >>> m = build_messages(c, [Passage(start=0, end=2, text="Q.", page="2")])
    >>> [x["role"] for x in m], "[p. 2] Q." in m[1]["content"]
    (['system', 'user'], True)
    """
    excerpts = "\n\n".join(f"[{p.label()}] {p.text}" for p in passages)
    user = (
        f"Case: {claim.case_name}, {claim.cite}\n"
        f"Proposition the brief cites it for: {claim.proposition}\n\n"
        f"Excerpts of the opinion:\n{excerpts}"
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


def parse_judgment(content: str | None) -> Judgment:
    """The judge's answer, validated against ``JUDGMENT_SCHEMA``; anything else raises ``ModelBadAnswer``.

    A Markdown code fence around the object is tolerated; extra keys, missing keys, values outside the
    enums, wrong types and over-long strings are not.

    >>> parse_judgment('{"support": "partly", "misuse": "none", "supporting_quote": "", "rationale": "r"}').support
    <Support.PARTLY: 'partly'>
    """
    if not content or not content.strip():
        raise ModelBadAnswer("the model gave an empty answer")
    m = _FENCE.match(content)
    text = m.group(1) if m else content.strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelBadAnswer(f"the model's answer is not JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise ModelBadAnswer("the model's answer is not a JSON object")
    required = set(JUDGMENT_SCHEMA["required"])
    if set(data) != required:
        missing, extra = sorted(required - set(data)), sorted(set(data) - required)
        raise ModelBadAnswer(f"the model's answer has the wrong keys (missing {missing}, unexpected {extra})")
    if not all(isinstance(data[k], str) for k in required):
        raise ModelBadAnswer("the model's answer has a value that is not a string")
    try:
        support, misuse = Support(data["support"]), Misuse(data["misuse"])
    except ValueError as exc:
        raise ModelBadAnswer(f"the model's answer has a value outside the schema ({exc})") from exc
    quote, rationale = data["supporting_quote"].strip(), data["rationale"].strip()
    if len(quote) > MAX_QUOTE_CHARS or len(rationale) > MAX_RATIONALE_CHARS:
        raise ModelBadAnswer("the model's answer is longer than the schema allows")
    return Judgment(support=support, misuse=misuse, supporting_quote=quote, rationale=rationale)
