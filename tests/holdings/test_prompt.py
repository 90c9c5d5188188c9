"""The judge's answers are validated against the schema; anything else is no answer."""

from __future__ import annotations

import json

import pytest

from citecheck.errors import ModelBadAnswer
from citecheck.holdings.models import Claim, Misuse, Passage, Support
from citecheck.holdings.prompt import PROMPT_VERSION, SYSTEM_PROMPT, build_messages, parse_judgment
from citecheck.spans import Span

GOOD = {
    "support": "contradicted",
    "misuse": "reversed-meaning",
    "supporting_quote": "a b c d e",
    "rationale": "R.",
}


def test_a_valid_answer_parses() -> None:
    j = parse_judgment(json.dumps(GOOD))
    assert (j.support, j.misuse, j.supporting_quote) == (Support.CONTRADICTED, Misuse.REVERSED, "a b c d e")


def test_a_code_fence_is_tolerated() -> None:
    assert parse_judgment("```json\n" + json.dumps(GOOD) + "\n```").support is Support.CONTRADICTED


@pytest.mark.parametrize(
    "content",
    [
        None,  # no content at all
        "",  # empty
        "The case supports it.",  # prose, not JSON
        '{"support": "supported"',  # truncated JSON
        "[1, 2]",  # not an object
        json.dumps({**GOOD, "support": "maybe"}),  # outside the enum
        json.dumps({**GOOD, "misuse": "lying"}),  # outside the enum
        json.dumps({k: v for k, v in GOOD.items() if k != "rationale"}),  # missing key
        json.dumps({**GOOD, "confidence": 0.9}),  # extra key
        json.dumps({**GOOD, "supporting_quote": 5}),  # wrong type
        json.dumps({**GOOD, "rationale": "x" * 5000}),  # too long
    ],
)
def test_anything_that_does_not_validate_is_rejected(content: str | None) -> None:
    with pytest.raises(ModelBadAnswer):
        parse_judgment(content)


def test_messages_put_the_fixed_prompt_first_and_send_only_claim_and_passages() -> None:
    claim = Claim(
        citation_index=0,
        span=Span(0, 1),
        proposition="Landlords need no notice.",
        case_id="cap:1",
        case_name="Smith v. Jones",
        cite="100 A.2d 36",
    )
    msgs = build_messages(claim, [Passage(start=0, end=5, text="We hold notice is required.", page="37")])
    assert msgs[0] == {"role": "system", "content": SYSTEM_PROMPT}
    user = msgs[1]["content"]
    assert "Landlords need no notice." in user and "[p. 37] We hold notice is required." in user
    assert "Smith v. Jones, 100 A.2d 36" in user
    assert PROMPT_VERSION.startswith("holding-v")
