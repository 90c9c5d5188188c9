"""The judge's endpoint: any OpenAI-compatible ``/v1/chat/completions`` server (vLLM, llama.cpp), via ``openai``.

This is the network edge of the holding check. It bounds concurrency (so vLLM can batch), gives each
request a timeout, keeps every retry inside one overall deadline (``AsyncOpenAI(max_retries=0)``: the
retries are ours), and translates every failure of the endpoint into ``ModelError``. Structured output is
asked for with ``response_format`` ``json_schema``; a server that rejects that form is asked again with
``json_object`` (and the answer is validated either way). The API key goes only to an https or loopback
endpoint and is never logged.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast
from urllib.parse import urlsplit

from citecheck.config import Settings
from citecheck.errors import ConfigError, ModelBadAnswer, ModelUnavailable
from citecheck.sources.retry import Backoff

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam

_T = TypeVar("_T")


def _chat(messages: Sequence[dict[str, str]]) -> list[ChatCompletionMessageParam]:
    """Our prompts are plain ``{"role", "content"}`` dicts; the SDK types them as TypedDicts per role."""
    return cast("list[ChatCompletionMessageParam]", list(messages))


log = logging.getLogger(__name__)

MAX_TOKENS = 300
BACKOFF_S = 0.5
MAX_BACKOFF_S = 8.0


class Deadline:
    """One monotonic end time shared by every request of a check (and their retries)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def remaining(self) -> float:
        return self.end - time.monotonic()

    def expired(self) -> bool:
        return self.remaining() <= 0


def _is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def key_allowed(url: str) -> bool:
    """May an API key be sent to ``url``? Only over https, or to this machine.

    >>> key_allowed("https://gpu.firm.internal/v1"), key_allowed("http://127.0.0.1:8000/v1"), key_allowed("http://gpu:8000/v1")
    (True, True, False)
    """
    parts = urlsplit(url)
    return parts.scheme == "https" or (parts.scheme == "http" and _is_loopback(parts.hostname or ""))


@dataclass(frozen=True, slots=True, kw_only=True)
class Completion:
    content: str
    seconds: float
    response_format: str  # "json_schema" | "json_object"


class ModelClient:
    """One ``AsyncOpenAI`` client for the configured endpoint, with our own limits and retries."""

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        concurrency: int = 8,
        retries: int = 2,
    ) -> None:
        if api_key and not key_allowed(base_url):
            raise ConfigError(
                f"refusing to send the model API key to {base_url}: use an https model_url (or a loopback one)"
            )
        try:
            from openai import AsyncOpenAI
        except ImportError as exc:  # declared in pyproject; a broken install gets a clear message
            raise ConfigError(f"holding checks need the 'openai' package ({exc})") from exc
        self.base_url = base_url
        self.model = model
        self.timeout_s = timeout_s
        self.retries = retries
        self._semaphore = asyncio.Semaphore(concurrency)
        self._format = "json_schema"
        self._client = AsyncOpenAI(
            base_url=base_url, api_key=api_key or "none", timeout=timeout_s, max_retries=0
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> ModelClient:
        if not (settings.model_url and settings.model_name):
            raise ConfigError("no model endpoint configured (set model_url and model_name)")
        return cls(
            base_url=settings.model_url,
            model=settings.model_name,
            api_key=settings.model_api_key,
            timeout_s=settings.model_timeout_s,
            concurrency=settings.model_concurrency,
            retries=settings.model_retries,
        )

    async def close(self) -> None:
        await self._client.close()

    async def __aenter__(self) -> ModelClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def list_models(self, deadline: Deadline | None = None) -> list[str]:
        """The model ids the endpoint serves (``GET /v1/models``)."""
        deadline = deadline or Deadline(self.timeout_s)

        async def call() -> list[str]:
            page = await self._client.models.list()
            return [m.id for m in page.data]

        return await self._with_retries(call, deadline, what="listing models")

    async def complete(self, messages: Sequence[dict[str, str]], deadline: Deadline) -> Completion:
        """One judgment's raw answer text; raises ``ModelUnavailable`` when none came in time."""
        async with self._semaphore:
            if deadline.expired():
                raise ModelUnavailable(
                    f"the holding checks ran past their deadline of {deadline.seconds:g} s"
                )
            started = time.monotonic()
            fmt = self._format
            try:
                content = await self._with_retries(
                    lambda: self._create(messages, fmt), deadline, what="judging"
                )
            except _FormatRejected:
                if fmt != "json_schema":
                    raise ModelUnavailable("the endpoint rejected the request for a JSON answer") from None
                log.info("endpoint rejected response_format json_schema; falling back to json_object")
                self._format = fmt = "json_object"
                try:
                    content = await self._with_retries(
                        lambda: self._create(messages, fmt), deadline, what="judging"
                    )
                except _FormatRejected:
                    raise ModelUnavailable("the endpoint rejected the request for a JSON answer") from None
            return Completion(content=content, seconds=time.monotonic() - started, response_format=fmt)

    async def first_token_logprobs(
        self, messages: Sequence[dict[str, str]], deadline: Deadline, top: int = 20
    ) -> list[tuple[str, float]]:
        """The ``top`` most likely first tokens of the answer with their log-probabilities (the yes/no
        protocol, ``yesno.py``); raises ``ModelUnavailable`` when none came in time, ``ModelBadAnswer``
        when the server returned no log-probabilities (it does not support them)."""
        async with self._semaphore:
            if deadline.expired():
                raise ModelUnavailable(
                    f"the holding checks ran past their deadline of {deadline.seconds:g} s"
                )
            return await self._with_retries(lambda: self._logprobs(messages, top), deadline, what="judging")

    async def _logprobs(self, messages: Sequence[dict[str, str]], top: int) -> list[tuple[str, float]]:
        resp = await self._client.chat.completions.create(
            model=self.model,
            messages=_chat(messages),
            temperature=0,
            max_tokens=1,
            logprobs=True,
            top_logprobs=top,
        )
        lp = resp.choices[0].logprobs if resp.choices else None
        if lp is None or not lp.content:
            raise ModelBadAnswer(
                "the endpoint returned no log-probabilities (the yes-no protocol needs them)"
            )
        return [(t.token, float(t.logprob)) for t in lp.content[0].top_logprobs]

    async def _create(self, messages: Sequence[dict[str, str]], fmt: str) -> str:
        from citecheck.holdings.prompt import response_format_object, response_format_schema

        # plain dicts from prompt.py; the SDK types response_format as TypedDicts
        rf: Any = response_format_schema() if fmt == "json_schema" else response_format_object()
        resp = await self._client.chat.completions.create(
            model=self.model,
            messages=_chat(messages),
            response_format=rf,
            temperature=0,
            max_tokens=MAX_TOKENS,
        )
        if not resp.choices:
            return ""
        return resp.choices[0].message.content or ""

    async def _with_retries(self, make: Callable[[], Awaitable[_T]], deadline: Deadline, *, what: str) -> _T:
        """Run ``make()`` with a per-request timeout; retry timeouts, refused connections, 429 and 5xx
        with back-off, all inside ``deadline``. Everything else becomes ``ModelUnavailable`` at once."""
        import openai

        backoff = Backoff(tries=self.retries, base_s=BACKOFF_S, cap_s=MAX_BACKOFF_S, jitter=0.1)
        while True:
            remaining = deadline.remaining()
            if remaining <= 0:
                raise ModelUnavailable(
                    f"the holding checks ran past their deadline of {deadline.seconds:g} s"
                )
            budget = min(self.timeout_s, remaining)
            retry_after: float | None = None
            try:
                return await asyncio.wait_for(make(), timeout=budget)
            except (TimeoutError, openai.APITimeoutError):
                why = (
                    f"no answer within {budget:.0f} s" if budget >= 1 else f"no answer within {budget:.1f} s"
                )
            except openai.RateLimitError as exc:
                why = "the endpoint is busy (429)"
                retry_after = _retry_after(exc)
            except openai.InternalServerError as exc:
                if _rejects_format(exc):  # llama-cpp-python answers 500 to a response_format it does not know
                    raise _FormatRejected() from None
                why = f"the endpoint failed ({exc.status_code})"
            except openai.APIConnectionError:
                why = f"cannot reach the endpoint at {self.base_url}"
            except openai.AuthenticationError:
                raise ModelUnavailable(
                    "the endpoint refused the API key (401); set CITECHECK_MODEL_API_KEY"
                ) from None
            except openai.PermissionDeniedError:
                raise ModelUnavailable("the endpoint refused the request (403)") from None
            except openai.NotFoundError:
                raise ModelUnavailable(f"the endpoint does not serve model '{self.model}' (404)") from None
            except openai.BadRequestError as exc:
                if _rejects_format(exc):
                    raise _FormatRejected() from None
                raise ModelUnavailable(f"the endpoint rejected the request ({exc.status_code})") from None
            except openai.APIStatusError as exc:
                if exc.status_code == 422 and _rejects_format(exc):
                    raise _FormatRejected() from None
                raise ModelUnavailable(f"the endpoint answered {exc.status_code}") from None
            except openai.OpenAIError as exc:  # a malformed response body and the like
                raise ModelUnavailable(
                    f"the endpoint's answer could not be read ({type(exc).__name__})"
                ) from None
            pause = backoff.next(asked_s=retry_after)
            if pause is None:
                raise ModelUnavailable(f"{why} while {what} (after {backoff.attempts} tries)")
            if pause >= deadline.remaining():
                raise ModelUnavailable(f"{why} while {what}; no time left to retry before the deadline")
            await asyncio.sleep(pause)


class _FormatRejected(Exception):
    """The server answered 400 to our ``response_format``; the caller falls back to ``json_object``."""


def _rejects_format(exc: Any) -> bool:
    """Does an error answer say the server does not accept our ``response_format``?"""
    text = str(exc).lower()
    return "response_format" in text or "json_schema" in text


def _retry_after(exc: Any) -> float | None:
    try:
        value = exc.response.headers.get("retry-after")
        return float(value) if value else None  # capped and floored by the Backoff
    except (AttributeError, ValueError, TypeError):
        return None
