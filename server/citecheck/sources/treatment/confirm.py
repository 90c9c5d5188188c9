"""``citecheck treatment build --confirm``: the model endpoint reads the sentences a rule read less surely.

A history phrase (``overruled by``) or the court's own ``we overrule`` says who did what in so many words; a
case as the subject of ``overruled``, a past tense, a participle or a statement naming no case are read from
the sentence's shape (``scan.AMBIGUOUS_FORMS``). For those, one yes-or-no question per sentence goes to the
endpoint the user configured (``model_url``, ``model_name``; the holding checks' client and yes-no protocol:
the log-odds of the first answer token). Only the opinion's sentence and the two case names are sent — public
court text, nothing of any draft. "No" drops the candidate; "yes" keeps it; no answer keeps it, counted (it
was explicit language, and a build must not depend on a model being up).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from citecheck.config import Settings
from citecheck.errors import CitecheckError
from citecheck.sources.treatment.scan import Candidate

SYSTEM = (
    "You read one sentence of a court opinion and answer a question about it with Yes or No only. Answer Yes "
    "only when the sentence itself says so; a case being cited, distinguished, criticised, or asked to be "
    "overruled is No."
)


def question(c: Candidate) -> str:
    target = (c.target.name if c.target and c.target.name else None) or "the case it cites"
    by = (
        f" by {c.actor.name}"
        if c.actor and c.actor.name
        else " by the court writing this opinion"
        if c.by_self
        else ""
    )
    return f'Sentence: "{c.quote}"\nQuestion: does this sentence say that {target} was {c.kind.value}{by}?'


async def confirm(
    candidates: Sequence[Candidate], settings: Settings, *, deadline_s: float = 600.0
) -> tuple[list[Candidate], Counter[str]]:
    """The candidates the model does not reject, and counts (asked, confirmed, rejected, unanswered)."""
    from citecheck.holdings.client import Deadline, ModelClient
    from citecheck.holdings.yesno import yes_no_log_odds

    counts: Counter[str] = Counter()
    kept: list[Candidate] = []
    deadline = Deadline(deadline_s)
    async with ModelClient.from_settings(settings) as client:
        for c in candidates:
            if not c.ambiguous:
                kept.append(c)
                continue
            counts["asked"] += 1
            messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question(c)}]
            try:
                odds = yes_no_log_odds(await client.first_token_logprobs(messages, deadline))
            except CitecheckError:
                counts["unanswered"] += 1
                kept.append(c)
                continue
            if odds < 0:
                counts["rejected"] += 1
            else:
                counts["confirmed"] += 1
                kept.append(c)
    return kept, counts


__all__ = ["SYSTEM", "confirm", "question"]
