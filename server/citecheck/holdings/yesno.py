"""The small-model protocol: one yes/no question, answered with and without the court's words; pure.

A model of 0.1–0.5B parameters cannot fill in the full judgment (``prompt.py``): asked for a verdict it
says "supported" to a reversed proposition, and it invents quotes. What such a model *can* do is answer
a narrow reading question, and the way its answer moves when it is shown the opinion is informative even
where the answer itself is biased (small models lean to "No" or to "Yes" whatever they read). So:

1. the sentence of the retrieved passages that shares the most words with the proposition is taken
   (retrieval, as for the full judgment; it is the opinion's own words, so the quote check finds it);
2. the model is asked "According to the court, is it true that <proposition>?" twice — once with that
   sentence ("The court wrote: …") and once without it — and its log-odds of Yes over No are read from
   ``top_logprobs`` of a one-token answer (vLLM, llama.cpp and OpenAI return them);
3. the *shift* (log-odds with the sentence minus without) decides: the court's words pushing the answer
   towards No by ``AGAINST_SHIFT`` or more → ``not-supported`` (a warning; the protocol cannot tell a
   reversed holding from an unrelated one, so it never says "contradicted"); towards Yes by
   ``SUPPORT_SHIFT`` or more → ``supported``; anything between → no judgment at all (a weak shift says
   nothing, and saying nothing is never an accusation).

Subtracting the answer without the passage is the "calibrate before use" idea (Zhao et al., 2021): it
removes the model's prior on the question, so what is left is what the opinion's words changed. The
thresholds were set on ``citecheck eval make --type misrepresentation`` items (docs/model-endpoint.md),
not on any one test sentence. Change the wording or a threshold → bump ``YESNO_VERSION`` (cached on it).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from citecheck.errors import ModelBadAnswer
from citecheck.holdings.models import Judgment, Misuse, Passage, Support

YESNO_VERSION = "yesno-v1"
AGAINST_SHIFT = -0.3  # log-odds units; see the module docstring and docs/model-endpoint.md
SUPPORT_SHIFT = 0.3
MIN_SENTENCE_WORDS = 5  # the quote check needs at least 5 words

SYSTEM = "Answer the question from the court's words only. Answer Yes or No."

_WORD = re.compile(r"[A-Za-z]{4,}")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def best_sentence(passages: Sequence[Passage], proposition: str) -> str | None:
    """The sentence of ``passages`` that shares the most content words with ``proposition`` (ties: the
    shorter one, then the earlier), or None when no sentence of 5+ words shares any.

    >>> p = Passage(start=0, end=1, text="The tenant left. We hold that notice must be given in writing to the tenant.")
    >>> best_sentence([p], "A landlord must give the tenant written notice.")
    'We hold that notice must be given in writing to the tenant.'
    """
    want = _words(proposition)
    best: tuple[float, str] | None = None
    for p in passages:
        for s in _SENTENCE.split(p.text):
            s = s.strip()
            if len(s.split()) < MIN_SENTENCE_WORDS:
                continue
            shared = len(_words(s) & want)
            if not shared:
                continue
            score = shared / (1 + 0.02 * len(s.split()))
            if best is None or score > best[0]:
                best = (score, s)
    return best[1] if best else None


def question(proposition: str) -> str:
    """The brief's proposition as a yes/no question about the court.

    >>> question("A landlord may not evict without notice.")
    'According to the court, is it true that a landlord may not evict without notice?'
    """
    body = proposition.strip().rstrip(" .;:")
    first = body.split(" ", 1)[0]
    if first[:1].isupper() and not (len(first) > 1 and first.isupper()):  # "The" → "the", but "US" stays
        body = body[0].lower() + body[1:]
    return f"According to the court, is it true that {body}?"


def messages(proposition: str, sentence: str | None) -> list[dict[str, str]]:
    """The question with the court's sentence (``sentence``) or without it (``None``, the prior)."""
    q = question(proposition)
    user = (
        f"Question: {q}\nAnswer Yes or No."
        if sentence is None
        else (f'The court wrote: "{sentence}"\n\nQuestion: {q}\nAnswer Yes or No.')
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def yes_no_log_odds(top: Iterable[tuple[str, float]]) -> float:
    """log P(Yes) − log P(No) from the first answer token's ``top_logprobs``; ``ModelBadAnswer`` when
    neither answer is among them (the model is not answering the question).

    >>> round(yes_no_log_odds([("Yes", math.log(0.6)), ("No", math.log(0.2)), ("The", -3.0)]), 3)
    1.099
    """
    yes = no = 0.0
    for token, logprob in top:
        word = token.strip().lower()
        if word == "yes":
            yes += math.exp(logprob)
        elif word == "no":
            no += math.exp(logprob)
    if yes == 0.0 and no == 0.0:
        raise ModelBadAnswer("the model answered neither Yes nor No")
    floor = 1e-6  # a side missing from the top list is at most that unlikely; keeps the log finite
    return math.log(max(yes, floor)) - math.log(max(no, floor))


def decide(shift: float, sentence: str) -> Judgment | None:
    """The judgment the shift supports, or None when it is too small to say anything.

    >>> decide(-1.0, "The court said so in these words.").support
    <Support.NOT_SUPPORTED: 'not-supported'>
    >>> decide(0.0, "The court said so in these words.") is None
    True
    """
    if shift <= AGAINST_SHIFT:
        return Judgment(
            support=Support.NOT_SUPPORTED,
            misuse=Misuse.NONE,
            supporting_quote=sentence,
            rationale=(
                f"Shown this sentence of the opinion, the model's answer to whether the court says "
                f'so moved towards "no" (log-odds shift {shift:+.2f}).'
            ),
        )
    if shift >= SUPPORT_SHIFT:
        return Judgment(
            support=Support.SUPPORTED,
            misuse=Misuse.NONE,
            supporting_quote=sentence,
            rationale=(
                f'Shown this sentence of the opinion, the model\'s answer moved towards "yes" '
                f"(log-odds shift {shift:+.2f})."
            ),
        )
    return None
