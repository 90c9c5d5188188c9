"""``citecheck model check``: is the configured holding-check endpoint up, what does it serve, how fast is it?

The edge for the model endpoint on the command line: prints the models the endpoint lists, the latency
of that call, and the latency and validity of one sample judgment (a fixed, public proposition and
passage, so nothing from any draft is sent). Exit 0 when the endpoint answered a valid judgment, 2
otherwise, with one line saying why.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from citecheck.config import Settings, settings_from_mapping
from citecheck.errors import ConfigError, ModelError

_SAMPLE_TEXT = (
    "The Fourth Amendment protects people, not places. What a person knowingly exposes to the public, even in "
    "his own home or office, is not a subject of Fourth Amendment protection."
)
_SAMPLE_PROPOSITION = "The Fourth Amendment protects places rather than people."


def add_model_commands(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser(
        "model",
        help="test the holding-check model endpoint",
        description="citecheck model check [--url URL] [--model NAME]: list the endpoint's models and time "
        "one sample judgment (no draft text is sent).",
    )
    p.add_argument("action", choices=("check",), help="check: test the endpoint")
    p.add_argument("--url", metavar="URL", help="endpoint base URL (default: the model_url setting)")
    p.add_argument("--model", metavar="NAME", help="model name (default: the model_name setting)")
    p.add_argument(
        "--timeout", type=float, metavar="S", help="seconds per request (default: model_timeout_s)"
    )
    p.add_argument("--config", type=Path, default=argparse.SUPPRESS, metavar="FILE", help="settings file")
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks")


async def run_model_command(args: argparse.Namespace, settings: Settings) -> int:
    overrides = {"model_url": args.url, "model_name": args.model, "model_timeout_s": args.timeout}
    settings = settings_from_mapping(
        {k: v for k, v in overrides.items() if v is not None}, settings, user_level=True
    )
    if not settings.model_url:
        raise ConfigError("no model endpoint configured: set model_url (CITECHECK_MODEL_URL) or pass --url")
    return await check_endpoint(settings)


async def check_endpoint(settings: Settings) -> int:
    from citecheck.holdings import Claim, Deadline, ModelClient, Passage
    from citecheck.holdings.prompt import PROMPT_VERSION, build_messages, parse_judgment
    from citecheck.spans import Span

    out = sys.stdout
    out.write(f"endpoint  {settings.model_url}\n")
    client = ModelClient(
        base_url=settings.model_url or "",
        model=settings.model_name or "",
        api_key=settings.model_api_key,
        timeout_s=settings.model_timeout_s,
        concurrency=1,
        retries=0,
    )
    try:
        t0 = time.monotonic()
        try:
            models = await client.list_models(Deadline(settings.model_timeout_s))
        except ModelError as exc:
            raise ConfigError(f"the model endpoint did not answer: {exc}") from exc
        out.write(
            f"models    {', '.join(models) or '(none listed)'}   ({(time.monotonic() - t0) * 1000:.0f} ms)\n"
        )
        name = settings.model_name
        if not name:
            out.write("model     not configured: set model_name (CITECHECK_MODEL_NAME) to one of the above\n")
            return 2
        if models and name not in models:
            out.write(f"model     '{name}' is not among them (the endpoint may still accept it)\n")
        if settings.model_protocol == "yes-no":
            return await _check_yes_no(client, settings, out)
        claim = Claim(
            citation_index=0,
            span=Span(0, 0),
            proposition=_SAMPLE_PROPOSITION,
            case_id="sample",
            case_name="Katz v. United States",
            cite="389 U.S. 347",
        )
        passage = Passage(start=0, end=len(_SAMPLE_TEXT), text=_SAMPLE_TEXT, page="351")
        try:
            completion = await client.complete(
                build_messages(claim, [passage]), Deadline(settings.model_timeout_s)
            )
        except ModelError as exc:
            raise ConfigError(f"the sample judgment failed: {exc}") from exc
        try:
            j = parse_judgment(completion.content)
            verdict = f"valid JSON ({completion.response_format}); verdict '{j.support}'"
        except ModelError as exc:
            out.write(f"judgment  {completion.seconds * 1000:.0f} ms, but {exc}\n")
            return 2
        out.write(
            f"judgment  {completion.seconds * 1000:.0f} ms, {verdict} (prompt {PROMPT_VERSION}; "
            "the sample's right answer is 'contradicted')\n"
        )
        return 0
    finally:
        await client.close()


async def _check_yes_no(client: Any, settings: Settings, out: Any) -> int:
    """The yes-no protocol's sample: both one-token questions on the public Katz sentence, and the shift."""
    from citecheck.holdings import Deadline, Passage
    from citecheck.holdings.yesno import YESNO_VERSION, best_sentence, decide, messages, yes_no_log_odds

    sentence = best_sentence(
        [Passage(start=0, end=len(_SAMPLE_TEXT), text=_SAMPLE_TEXT)], _SAMPLE_PROPOSITION
    )
    t0 = time.monotonic()
    try:
        with_court = await client.first_token_logprobs(
            messages(_SAMPLE_PROPOSITION, sentence), Deadline(settings.model_timeout_s)
        )
        prior = await client.first_token_logprobs(
            messages(_SAMPLE_PROPOSITION, None), Deadline(settings.model_timeout_s)
        )
    except ModelError as exc:
        raise ConfigError(f"the sample yes-no question failed: {exc}") from exc
    ms = (time.monotonic() - t0) * 1000
    try:
        shift = yes_no_log_odds(with_court) - yes_no_log_odds(prior)
    except ModelError as exc:
        out.write(f"yes-no    {ms:.0f} ms, but {exc}\n")
        return 2
    j = decide(shift, sentence or "")
    verdict = j.support.value if j is not None else "undecided"
    out.write(
        f"yes-no    {ms:.0f} ms for both questions, log-probabilities returned; shift {shift:+.2f} → '{verdict}' "
        f"(prompt {YESNO_VERSION}; the sample's right answer is 'not-supported')\n"
    )
    return 0
