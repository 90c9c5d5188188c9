"""Settings shared by the CLI and the language server: one table, and pure parsers for each layer.

Every setting is declared once, as a field of ``Settings``: its type and default, and in ``setting(...)``
its parser, its other names (config-file aliases, the editor key), **who may set it** and its docs. The
parsing of every layer, ``docs/settings.md`` (``config/docs.py`` renders it; a test keeps the file equal
to it) and the "did you mean" warnings all derive from that table. Adding a setting is one field.

Precedence (lowest first): defaults → the user's own settings file (user config dir) → the folder's
``citecheck.toml`` / ``[tool.citecheck]`` → ``CITECHECK_*`` environment → CLI flags; in the language
server: defaults → user settings file → environment → ``initializationOptions`` → ``workspace/configuration``.

**Who may set what** (docs/security.md): a setting that names a host, a key or a file to read
(``Who.USER``) comes only from the user's own layers — the user settings file, ``--config``, the
environment, flags and the editor's launch options — never from the folder being checked (its
``citecheck.toml``, an editor's workspace settings); a secret (``Who.SECRET``) never from any file.
A setting that decides *whether* something leaves the machine (``Who.STRICTER``: ``offline``,
``holdings``, ``cap_fetch``, ``name_search_online``, ``treatment_online``, the CourtListener allowances) may
be set by the folder only in the direction that sends less: what the user turned off, the folder cannot turn back on.
A layer that tries gets a warning naming the setting and where to set it instead.
This module never reads files or the environment itself: callers pass the values in.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from citecheck.config import parsers as p
from citecheck.errors import ConfigError
from citecheck.findings import Kind, Severity

DEFAULT_COURTLISTENER_URL = "https://www.courtlistener.com/api/rest/v4/"
DEFAULT_CAP_URL = "https://static.case.law/"
DEFAULT_USCODE_URL = "https://uscode.house.gov/download/"
DEFAULT_ECFR_URL = "https://www.ecfr.gov/api/versioner/v1/"
CANNOT_VERIFY_DISPLAY = ("hint", "information", "none")


def _data_dir() -> Path:
    return Path(platformdirs.user_data_dir("citecheck", appauthor=False))


def default_corpus_path() -> Path:
    """Where the corpus lives when nobody named one (it may not exist yet: a fresh machine)."""
    return _data_dir() / "corpus.sqlite"


def default_index_path() -> Path:
    """Where ``corpus sync`` builds the citation index and checks look for it (it may not exist)."""
    return _data_dir() / "index.sqlite"


#: CourtListener's public bucket of bulk data (its listing names the dated files).
DEFAULT_BULK_URL = "https://com-courtlistener-storage.s3-us-west-2.amazonaws.com/"


def default_treatment_path() -> Path:
    """Where ``citecheck treatment build`` writes the treatment table and checks read it (it may not exist)."""
    return _data_dir() / "treatment.sqlite"


def overruled_table_path() -> Path:
    """The Congress.gov table of decisions overruled as ``corpus sync`` last refreshed it (the package's copy
    is used until then)."""
    return _data_dir() / "overruled-decisions.csv"


#: The Constitution Annotated's table of Supreme Court decisions overruled (Library of Congress).
DEFAULT_OVERRULED_URL = "https://constitution.congress.gov/resources/decisions-overruled/"


def default_statutes_path() -> Path:
    """Where ``corpus sync --statutes`` builds the statute index when nobody named a file."""
    return _data_dir() / "statutes.sqlite"


def _cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("citecheck", appauthor=False))


def user_config_path() -> Path:
    """The user's own settings file (``~/.config/citecheck/citecheck.toml`` on Linux): the one settings
    file that may choose hosts and files, because nothing in a checked folder can put it there."""
    return Path(platformdirs.user_config_dir("citecheck", appauthor=False)) / "citecheck.toml"


class Who(enum.Enum):
    """Who may set a setting."""

    #: any layer, the folder being checked included (its citecheck.toml, an editor's workspace settings)
    FOLDER = "folder"
    #: names a host, a key or a file to read: only the user's own layers (user settings file, --config,
    #: environment, flags, the editor's launch options), never the folder being checked
    USER = "user"
    #: a secret: the environment, flags or the editor's secret store, never a settings file
    SECRET = "secret"
    #: decides whether something leaves the machine: any layer may make it stricter (send less), only
    #: the user's own layers may loosen it (``Spec.looser`` says which way is which)
    STRICTER = "stricter"


class Layer(enum.Enum):
    """Where a mapping of settings came from, which decides what it may set (``Who``)."""

    #: the folder being checked: a citecheck.toml / [tool.citecheck] found from it, LSP workspace settings
    FOLDER = "folder"
    #: a settings file the user chose: the user settings file, ``--config`` or ``CITECHECK_CONFIG``
    USER_FILE = "user file"
    #: the environment, command-line flags, the editor's launch options (LSP ``initializationOptions``)
    USER = "user"

    def may_set(self, who: Who) -> bool:
        """Whether this layer may set such a setting at all (a ``Who.STRICTER`` one from the folder: only
        in the stricter direction, which ``settings_from_mapping`` checks value by value)."""
        if self is Layer.USER:
            return True
        if self is Layer.USER_FILE:
            return who is not Who.SECRET
        return who in (Who.FOLDER, Who.STRICTER)


#: ``looser(before, after)``: True when ``after`` would let more leave the machine than ``before``.
Looser = Callable[[Any, Any], bool]


def turns_on(before: Any, after: Any) -> bool:
    """For a switch that sends when true (``cap_fetch``, ``holdings``): turning it on is looser."""
    return bool(after) and not bool(before)


def turns_off(before: Any, after: Any) -> bool:
    """For a switch that keeps things here when true (``offline``): turning it off is looser."""
    return bool(before) and not bool(after)


def allows_more(which: str) -> Looser:
    """For a request allowance (``5/min,50/hour``): looser unless every limit before is kept by one after —
    at most as many requests in a window at least as long. Unset means CourtListener's documented
    free-account limits (``which``: ``"request"`` or ``"citation"``), what the official host gets.

    >>> looser = allows_more("request")
    >>> looser(None, "2/min,20/hour,100/day"), looser(None, "100/min"), looser("5/min", "none")
    (False, True, True)
    """

    def looser(before: Any, after: Any) -> bool:
        from citecheck.sources import pacing

        default = pacing.FREE_REQUEST_RATES if which == "request" else pacing.FREE_CITATION_RATE
        old = pacing.parse_rates(default if before is None else str(before))
        new = pacing.parse_rates(default if after is None else str(after))
        return not all(any(n.count <= o.count and n.window_s >= o.window_s for n in new) for o in old)

    return looser


@dataclass(frozen=True, slots=True)
class Spec:
    """One row of the settings table (the rest of the row is the ``Settings`` field: name, type, default)."""

    parse: p.Parser
    doc: str
    who: Who = Who.FOLDER
    #: other config-file keys; snake_case ones are also environment names (``CITECHECK_<ALIAS>``)
    aliases: tuple[str, ...] = ()
    #: the editor's key (VS Code ``citecheck.<editor>``, the LSP settings key), None when editors have none
    editor: str | None = None
    #: the default as the docs show it (else the field's default)
    shown_default: str | None = None
    #: ``Who.STRICTER``: which way is looser, and how the docs say what the folder may do
    looser: Looser | None = None
    stricter_doc: str = ""


def setting(
    default: Any = None,
    *,
    parse: p.Parser,
    doc: str,
    who: Who = Who.FOLDER,
    aliases: tuple[str, ...] = (),
    editor: str | None = None,
    shown_default: str | None = None,
    factory: Any = None,
    looser: Looser | None = None,
    stricter_doc: str = "",
) -> Any:
    """A ``Settings`` field with its row of the table (``factory`` for a default built per instance).

    ``looser`` (with ``who=Who.STRICTER``): which values would send more than the ones before them."""
    if (who is Who.STRICTER) != (looser is not None):
        raise TypeError("a Who.STRICTER setting needs looser=, and only it")
    spec = Spec(parse, doc, who, aliases, editor, shown_default, looser, stricter_doc)
    meta = {"spec": spec}
    repr_ = who is not Who.SECRET
    if factory is not None:
        return field(default_factory=factory, metadata=meta, repr=repr_)
    return field(default=default, metadata=meta, repr=repr_)


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """Every setting (docs/settings.md is rendered from these rows)."""

    corpus_path: Path = setting(  # noqa: RUF009  (setting() is a dataclasses.field)
        parse=p.path, who=Who.USER, aliases=("corpus",), editor="corpusPath", factory=default_corpus_path,
        doc="local SQLite corpus (`citecheck corpus import …`)", shown_default="user data dir `corpus.sqlite`",
    )  # fmt: skip
    cache_path: Path = setting(  # noqa: RUF009
        parse=p.path, who=Who.USER, aliases=("cache",), editor="cachePath",
        factory=lambda: _cache_dir() / "cache.sqlite",
        doc="cache of remote answers (and of the model's judgments)", shown_default="user cache dir `cache.sqlite`",
    )  # fmt: skip
    index_path: Path = setting(  # noqa: RUF009
        parse=p.path, who=Who.USER, aliases=("index", "indexPath"), factory=default_index_path,
        doc="the citation index `citecheck corpus sync` builds and checks read (docs/sources.md)",
        shown_default="user data dir `index.sqlite`",
    )  # fmt: skip
    bulk_url: str = setting(
        DEFAULT_BULK_URL, parse=p.https_folder_url, who=Who.USER, aliases=("bulkUrl",),
        doc="where `corpus sync` lists and downloads CourtListener's bulk files (https; http only to this machine)",
    )  # fmt: skip
    courtlistener_token: str | None = setting(
        parse=p.optional_text, who=Who.SECRET, aliases=("token",), editor="courtlistenerToken",
        doc="CourtListener API token; never logged, sent only to its own host (VS Code: *Set CourtListener "
        "token* command, kept in the OS keychain)",
    )  # fmt: skip
    courtlistener_url: str = setting(
        DEFAULT_COURTLISTENER_URL, parse=p.text, who=Who.USER,
        aliases=("courtlistener_base_url", "courtlistenerBaseUrl"), editor="courtlistenerUrl",
        doc="CourtListener API base URL (where citation strings and the token go)",
    )  # fmt: skip
    name_search_online: bool = setting(
        True, parse=p.boolean, who=Who.STRICTER, looser=turns_on, stricter_doc="turn it off, never on",
        doc="with a CourtListener token, ask its search API for the case name of a citation a finding calls "
        "wrong, to propose the right citation (false: names are searched on this machine only)",
    )  # fmt: skip
    cap_fetch: bool = setting(
        True, parse=p.boolean, editor="capFetch", who=Who.STRICTER, looser=turns_on,
        stricter_doc="turn it off, never on",
        doc="download Caselaw Access Project volumes the corpus lacks",
    )  # fmt: skip
    cap_url: str = setting(
        DEFAULT_CAP_URL, parse=p.text, who=Who.USER, editor="capUrl", doc="CAP static site",
    )  # fmt: skip
    treatment_path: Path = setting(  # noqa: RUF009
        parse=p.path, who=Who.USER, aliases=("treatment", "treatmentPath"), factory=default_treatment_path,
        doc="the treatment table (cases overruled or negatively treated) `citecheck treatment build` writes and "
        "checks read (docs/sources.md)", shown_default="user data dir `treatment.sqlite`",
    )  # fmt: skip
    overruled_url: str = setting(
        DEFAULT_OVERRULED_URL, parse=p.http_url, who=Who.USER, aliases=("overruledUrl",),
        doc="where `corpus sync` refreshes the Constitution Annotated's table of Supreme Court decisions "
        "overruled (Congress.gov; the package ships a copy)",
    )  # fmt: skip
    treatment_online: bool = setting(
        True, parse=p.boolean, who=Who.STRICTER, looser=turns_on, stricter_doc="turn it off, never on",
        doc="with a CourtListener token, search the opinions citing a case for negative treatment when the "
        "treatment data on this machine has none (only the citation, e.g. `410 U.S. 113`, is sent; paced, cached)",
    )  # fmt: skip
    statutes_path: Path = setting(  # noqa: RUF009
        parse=p.path, who=Who.USER, aliases=("statutes", "statutesPath"), factory=default_statutes_path,
        doc="the statute index (U.S. Code and C.F.R. sections) that `citecheck corpus sync --statutes` builds "
        "and checks read", shown_default="user data dir `statutes.sqlite`",
    )  # fmt: skip
    uscode_url: str = setting(
        DEFAULT_USCODE_URL, parse=p.https_folder_url, who=Who.USER,
        doc="the OLRC's U.S. Code download pages (`download.shtml`, `releasepoints/…`; https, http only to this "
        "machine)",
    )  # fmt: skip
    ecfr_url: str = setting(
        DEFAULT_ECFR_URL, parse=p.https_folder_url, who=Who.USER,
        doc="the eCFR versioner API (`titles.json`, `versions/`, `full/`; https, http only to this machine)",
    )  # fmt: skip
    offline: bool = setting(
        False, parse=p.boolean, editor="offline", doc="never use the network (the CLI's `--offline`)",
        who=Who.STRICTER, looser=turns_off, stricter_doc="turn it on, never off",
    )  # fmt: skip
    enabled_kinds: frozenset[str] | None = setting(
        parse=p.finding_kinds, aliases=("enabled_checks", "checks", "enabledChecks"), editor="enabledKinds",
        doc="finding kinds to report (comma-separated in the environment); unset = all", shown_default="all",
    )  # fmt: skip
    severity_overrides: Mapping[str, Severity] = setting(
        parse=p.severity_map, aliases=("severity",), editor="severityOverrides", factory=dict,
        doc="severity per finding kind (`kind=severity,…` in the environment)", shown_default="none",
    )  # fmt: skip
    languages: tuple[str, ...] = setting(
        ("plaintext", "markdown"), parse=p.word_list, editor="languages",
        doc="editor language ids to check", shown_default="`plaintext, markdown`",
    )  # fmt: skip
    max_document_chars: int = setting(
        2_000_000, parse=p.integer(0), aliases=("size_limit", "sizeLimit"), editor="maxDocumentChars",
        doc="largest document checked (VS Code: `citecheck.sizeLimit`)", shown_default="2,000,000",
    )  # fmt: skip
    debounce_ms: int = setting(
        150, parse=p.integer(0), editor="debounceMs",
        doc="pause after typing before the source-backed stage",
    )  # fmt: skip
    model_url: str | None = setting(
        parse=p.http_url_or_none, who=Who.USER, editor="modelUrl",
        doc="OpenAI-compatible endpoint for *unsupported-holding* (where propositions, passages and the "
        "model key go); None = off",
    )  # fmt: skip
    model_name: str | None = setting(parse=p.optional_text, editor="modelName", doc="model to request there")
    model_api_key: str | None = setting(
        parse=p.optional_text, who=Who.SECRET, editor="modelApiKey",
        doc="key for the model endpoint; sent only there (https or loopback), never logged",
    )  # fmt: skip
    model_timeout_s: float = setting(
        60.0, parse=p.seconds, aliases=("model_timeout", "modelTimeout"), editor="modelTimeout",
        doc="seconds for one model request",
    )  # fmt: skip
    model_deadline_s: float = setting(
        300.0, parse=p.seconds, aliases=("model_deadline", "modelDeadline"), editor="modelDeadline",
        doc="every holding judgment of one check together",
    )  # fmt: skip
    model_concurrency: int = setting(
        8, parse=p.integer(1), editor="modelConcurrency", doc="model requests in flight at once (vLLM batches them)",
    )  # fmt: skip
    model_retries: int = setting(
        2, parse=p.integer(0), editor="modelRetries", doc="further tries after a timeout, 429 or 5xx",
    )  # fmt: skip
    model_passage_tokens: int = setting(
        1200, parse=p.integer(1), editor="modelPassageTokens",
        doc="opinion text sent per proposition (approximate tokens)",
    )  # fmt: skip
    model_protocol: str = setting(
        "judgment", parse=p.choice("judgment", "yes-no"), editor="modelProtocol",
        doc="`judgment` (full JSON verdict; 7B+ instruct models) or `yes-no` (one calibrated yes/no question; "
        "small models on a CPU; needs `top_logprobs`) — docs/model-endpoint.md",
    )  # fmt: skip
    holdings: bool = setting(
        True, parse=p.boolean, who=Who.STRICTER, looser=turns_on, stricter_doc="turn it off, never on",
        doc="run the holding check when a model endpoint is set (the CLI's `--no-holdings` turns it off)",
    )  # fmt: skip
    http_timeout_s: float = setting(
        20.0, parse=p.seconds, aliases=("http_timeout", "httpTimeout"), editor="httpTimeout",
        doc="seconds for one request, body included (connecting: at most 3)",
    )  # fmt: skip
    token_hosts: frozenset[str] = setting(
        frozenset(), parse=p.host_set, who=Who.USER, aliases=("tokenHosts",),
        doc="other hosts the CourtListener token may be sent to (`host` or `host:port`, comma-separated), "
        "over https (docs/security.md)", shown_default="none",
    )  # fmt: skip
    serve_token: str | None = setting(
        parse=p.optional_text, who=Who.SECRET,
        doc="the token `citecheck corpus serve` requires when it listens beyond loopback",
    )  # fmt: skip
    courtlistener_rates: str | None = setting(
        parse=p.rates, aliases=("courtlistenerRates",), editor="courtlistenerRates",
        who=Who.STRICTER, looser=allows_more("request"), stricter_doc="lower it, never raise it",
        doc="request allowance, e.g. `5/min,50/hour,125/day` (docs/sources.md)",
        shown_default="the documented free-account limits",
    )  # fmt: skip
    courtlistener_citation_rate: str | None = setting(
        parse=p.rates, aliases=("courtlistenerCitationRate",), editor="courtlistenerCitationRate",
        who=Who.STRICTER, looser=allows_more("citation"), stricter_doc="lower it, never raise it",
        doc="looked-up citations allowance, e.g. `60/min`", shown_default="documented limit",
    )  # fmt: skip
    courtlistener_budget_s: float | None = setting(
        60.0, parse=p.seconds_or_none("none", "wait", "unlimited"), aliases=("courtlistenerBudget",),
        editor="courtlistenerBudget",
        doc="a CLI run's deadline for CourtListener (`none`: wait, like `--wait`)",
    )  # fmt: skip
    cap_budget_s: float | None = setting(
        30.0, parse=p.seconds_or_none("none", "unlimited"), aliases=("capBudget",), editor="capBudget",
        doc="a CLI run's total time for CAP downloads (`none`: no limit); the language server has none",
    )  # fmt: skip
    cannot_verify_diagnostics: str = setting(
        "hint", parse=p.choice(*CANNOT_VERIFY_DISPLAY), editor="cannotVerifyDiagnostics",
        doc="how editors show a citation no source covers: `hint` (faint dots, no squiggle, not in Problems), "
        "`information` (a squiggle), `none`; the status bar and Citations view count them either way. The "
        "CLI lists them as `info`",
    )  # fmt: skip
    court: str | None = setting(
        parse=p.optional_text, editor="court", shown_default="from the caption",
        doc="the matter's court (courts-db id, abbreviation or name); else read from the caption "
        "(docs/jurisdiction.md)",
    )  # fmt: skip
    question: str | None = setting(
        parse=p.choice("federal", "state", optional=True), editor="question", shown_default="from the court",
        doc="`federal` or `state` question; default: federal law in federal court, state in state",
    )  # fmt: skip

    def network_allowed(self) -> bool:
        return not self.offline

    def holdings_enabled(self) -> bool:
        """Holding checks run only when a model endpoint is configured and they were not turned off."""
        return bool(self.holdings and self.model_url and self.model_name)

    def kind_enabled(self, kind: Kind | str) -> bool:
        return self.enabled_kinds is None or str(kind) in self.enabled_kinds

    def severity_for(self, kind: Kind | str, default: Severity) -> Severity:
        return self.severity_overrides.get(str(kind), default)


#: The table: setting name → its row.
SPECS: Mapping[str, Spec] = {f.name: f.metadata["spec"] for f in fields(Settings)}
#: key as written in TOML / JSON (an alias or the editor key) → setting name
_ALIASES: Mapping[str, str] = {
    key: name
    for name, spec in SPECS.items()
    for key in (*spec.aliases, *((spec.editor,) if spec.editor else ()))
    if key != name
}
#: Settings a folder may set only in the stricter direction (``Who.STRICTER``).
STRICTER_ONLY = frozenset(name for name, spec in SPECS.items() if spec.who is Who.STRICTER)
#: ``CITECHECK_*`` variables that are not settings but are read somewhere (add yours here, or users
#: who set it are told it is unknown).
OTHER_ENV = frozenset(
    {
        "CITECHECK_CONFIG",
        # the project's own test harness (tests/, clients/vscode/test/): not settings, but not typos either
        "CITECHECK_E2E",
        "CITECHECK_E2E_CACHE",
        "CITECHECK_E2E_SCREENSHOTS",
        "CITECHECK_REGEN_GOLDEN",
        "CITECHECK_PYTHON",
        "CITECHECK_UPDATE_SCREENSHOTS",
        "CITECHECK_MODEL_CACHE",
    }
)


def env_name(name: str) -> str:
    return f"CITECHECK_{name.upper()}"


def env_names(name: str) -> tuple[str, ...]:
    """A setting's environment variables: its own, then one per snake_case alias."""
    spec = SPECS[name]
    return (env_name(name), *(env_name(a) for a in spec.aliases if a.islower() or "_" in a))


def setting_name(raw_key: str) -> str:
    """The setting a config/editor key names (``capFetch`` → ``cap_fetch``); unknown keys come back as given."""
    return _ALIASES.get(raw_key, raw_key.replace("-", "_"))


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.8)
    return f" (did you mean {close[0]}?)" if close else ""


def _where_instead(name: str) -> str:
    if SPECS[name].who is Who.SECRET:
        return f"the environment ({env_name(name)}) or your editor's secret store"
    return f"your own settings: {user_config_path()}, {env_name(name)} or your editor's user settings"


def _loosens(name: str, value: Any, base: Settings, layer: Layer) -> bool:
    """Whether ``value`` for ``name`` from ``layer`` would send more than ``base`` does (so it is ignored)."""
    spec = SPECS[name]
    if layer is not Layer.FOLDER or spec.looser is None or value is None:
        return False
    try:
        parsed = parse_value(name, value)
    except ConfigError:
        return False  # settings_from_mapping reports a bad value as the error it is
    return spec.looser(getattr(base, name), parsed)


def key_warnings(
    data: Mapping[str, Any], where: str, layer: Layer = Layer.FOLDER, base: Settings | None = None
) -> list[str]:
    """One warning per key of a settings table that is ignored: no setting has it, ``layer`` may not set it,
    or (with ``base``, the settings before this layer) the folder would loosen what the user chose.

    >>> key_warnings({"offline": True, "http_timout": 5}, "citecheck.toml")
    ['citecheck.toml: unknown setting "http_timout" (did you mean http_timeout?); it is ignored']
    >>> key_warnings({"modelUrl": "https://x.example/v1"}, "citecheck.toml")[0].split(";")[0]
    'citecheck.toml: model_url ("modelUrl") names a host, a key or a file'
    >>> key_warnings({"offline": False}, "citecheck.toml", base=Settings(offline=True))[0].split(";")[0]
    'citecheck.toml: offline = false would use the network, which your own settings turned off'
    """
    names = sorted(set(SPECS) | set(_ALIASES))
    out = []
    for k in data:
        name = setting_name(k)
        spec = SPECS.get(name)
        if spec is None:
            out.append(f'{where}: unknown setting "{k}"{_suggest(k, names)}; it is ignored')
        elif not layer.may_set(spec.who):
            shown = name if k == name else f'{name} ("{k}")'
            why = (
                "is a secret, never read from a settings file or the folder being checked"
                if spec.who is Who.SECRET
                else "names a host, a key or a file; the folder being checked may not choose it"
            )
            out.append(f"{where}: {shown} {why}; it is ignored (set it in {_where_instead(name)})")
        elif base is not None and _loosens(name, data[k], base, layer):
            shown = name if k == name else f'{name} ("{k}")'
            out.append(
                f"{where}: {shown} = {_toml(data[k])} {_LOOSER_WHY.get(name, _LOOSER_WHY[''])}; the folder "
                f"being checked may only {spec.stricter_doc or 'make it stricter'}; it is ignored (change it in "
                f"{_where_instead(name)})"
            )
    return out


#: What a refused loosening would have done, in the warning's words.
_LOOSER_WHY = {
    "offline": "would use the network, which your own settings turned off",
    "cap_fetch": "would download CAP volumes, which your own settings turned off",
    "holdings": "would send propositions to the model endpoint, which your own settings turned off",
    "name_search_online": "would send case names to CourtListener's search, which your own settings turned off",
    "treatment_online": "would send citations to CourtListener's search for their treatment, which your own "
    "settings turned off",
    "courtlistener_rates": "would send more requests with your token than your own settings allow",
    "courtlistener_citation_rate": "would look up more citations with your token than your own settings allow",
    "": "would send more than your own settings allow",
}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if not isinstance(value, str) else f'"{value}"'


def _known_env() -> set[str]:
    return {v for name in SPECS for v in env_names(name)} | set(OTHER_ENV)


def unknown_env(environ: Mapping[str, str]) -> list[str]:
    """One warning per ``CITECHECK_*`` variable that is no setting (a typo is otherwise silent).

    >>> unknown_env({"CITECHECK_HTTP_TIMOUT": "5", "CITECHECK_OFFLINE": "1", "HOME": "/"})
    ['unknown environment variable CITECHECK_HTTP_TIMOUT (did you mean CITECHECK_HTTP_TIMEOUT?); it is ignored']
    """
    known = _known_env()
    return [
        f"unknown environment variable {k}{_suggest(k, sorted(known))}; it is ignored"
        for k in sorted(environ)
        if k.startswith("CITECHECK_") and k not in known
    ]


def parse_value(name: str, value: Any) -> Any:
    """``value`` parsed by the setting's own parser; a bad value is a ``ConfigError`` naming the setting."""
    try:
        return SPECS[name].parse(name, value)
    except ConfigError:
        raise
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"bad value for {name}: {value!r} ({exc})") from exc


def settings_from_mapping(
    data: Mapping[str, Any],
    base: Settings | None = None,
    *,
    user_level: bool = False,
    layer: Layer | None = None,
) -> Settings:
    """Apply a mapping (TOML table, LSP options, flags) on top of ``base``; unknown keys are ignored.

    ``layer`` says where the mapping came from (``user_level`` is short for ``Layer.USER``; neither means
    the folder being checked); keys that layer may not set are ignored — ``key_warnings`` names them.

    >>> s = settings_from_mapping({"corpusPath": "/tmp/c.sqlite", "capFetch": False}, user_level=True)
    >>> (str(s.corpus_path), s.cap_fetch)
    ('/tmp/c.sqlite', False)
    >>> settings_from_mapping({"modelUrl": "https://x.example/v1"}).model_url is None
    True
    >>> settings_from_mapping({"offline": False}, Settings(offline=True)).offline  # the folder cannot undo it
    True
    """
    layer = layer or (Layer.USER if user_level else Layer.FOLDER)
    base = base or Settings()
    changes: dict[str, Any] = {}
    for raw_key, value in data.items():
        name = setting_name(raw_key)
        spec = SPECS.get(name)
        if spec is None or value is None or not layer.may_set(spec.who):
            continue
        parsed = parse_value(name, value)
        if layer is Layer.FOLDER and spec.looser is not None and spec.looser(getattr(base, name), parsed):
            continue  # the folder may only make it stricter (key_warnings says so)
        changes[name] = parsed
    return replace(base, **changes)


def env_settings(environ: Mapping[str, str]) -> dict[str, str]:
    """The ``CITECHECK_*`` variables that name settings, keyed by setting name (aliases resolved)."""
    data = {}
    for k, v in environ.items():
        if k.startswith("CITECHECK_") and k not in OTHER_ENV:
            data[setting_name(k[len("CITECHECK_") :].lower())] = v
    return data


def settings_from_env(environ: Mapping[str, str], base: Settings | None = None) -> Settings:
    """``CITECHECK_CORPUS_PATH`` → corpus_path, etc.; ``CITECHECK_COURTLISTENER_TOKEN`` too.

    >>> settings_from_env({"CITECHECK_OFFLINE": "1"}).offline
    True
    """
    return settings_from_mapping(env_settings(environ), base, layer=Layer.USER)


#: The hosts the CourtListener token is for.
OFFICIAL_COURTLISTENER_HOSTS = frozenset({"www.courtlistener.com", "courtlistener.com"})
_LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def token_refusal(url: str, allowed: frozenset[str] = frozenset()) -> str | None:
    """Why the CourtListener token must not be sent to ``url``, or None when it may.

    The token goes over https to the official host; another host only when the user allowed it
    (``CITECHECK_TOKEN_HOSTS``), and then over https too unless it is this machine (loopback).

    >>> token_refusal("https://www.courtlistener.com/api/rest/v4/") is None
    True
    >>> token_refusal("http://evil.example/api/") is not None
    True
    """
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return f"CourtListener URL {url!r} is not a valid URL; the token was not sent"
    scheme = parts.scheme.lower()
    if host in OFFICIAL_COURTLISTENER_HOSTS and port in (None, 443):
        if scheme == "https":
            return None
        return f"CourtListener URL {url} is not https; the token is sent only over https"
    named = {host, f"{host}:{port}"} if port is not None else {host}
    if not named & allowed:
        return (
            f"CourtListener URL {url} is not the official host; the token is sent there only if you "
            f"allow it in your own environment: CITECHECK_TOKEN_HOSTS={host}"
        )
    if scheme != "https" and host not in _LOOPBACK:
        return f"CourtListener URL {url} is not https; the token is sent only over https"
    return None
