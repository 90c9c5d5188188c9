"""The one exception tree of citecheck; dependency exceptions are translated into it at the edges.

    CitecheckError
    ├── ConfigError          bad settings file, flag or environment variable
    ├── InputError           unreadable, encrypted, binary or oversize input document
    ├── CorpusError          the SQLite corpus or cache cannot be opened / is corrupt
    │   ├── ImportFormatError   an import path is in no format we know
    │   │   └── SchemaChanged   a statute release (USLM, eCFR) is not in the format we read
    │   ├── DiskSpaceError      not enough free disk for a download or an index build
    │   └── SyncBusy            another ``corpus sync`` is building the same index
    ├── SourceError          a case-law source failed
    │   ├── SourceUnavailable   network down, timeout, 5xx after retries
    │   │   └── TextNotHere     a case is known (citation index) but no source available now has its text
    │   ├── RateLimited         throttled; ``retry_after`` seconds (may be None)
    │   │   └── Deferred        the allowance returns only after the caller's deadline (``until``)
    │   ├── AuthenticationError 401/403 from CourtListener
    │   ├── BadResponse         the service answered with something we cannot parse
    │   └── DownloadError       a downloaded file is not the object listed (size, ETag)
    └── ModelError           the holding-check model endpoint failed (never a finding about the draft)
        ├── ModelUnavailable    refused, timed out, 429/5xx after retries, or past the overall deadline
        └── ModelBadAnswer      the answer did not validate against the judgment schema

Problems *in the document* are never exceptions: they are Findings.
"""

from __future__ import annotations


class CitecheckError(Exception):
    """Base of every error citecheck raises on purpose."""


class ConfigError(CitecheckError):
    pass


class InputError(CitecheckError):
    pass


class CorpusError(CitecheckError):
    pass


class ImportFormatError(CorpusError):
    pass


class SchemaChanged(ImportFormatError):
    """A downloaded statute or regulation file is not in the format its parser knows (root element,
    namespace, or the elements it needs): the sync stops rather than build an index that would call
    real sections fabricated."""


class UnreadableFile(SchemaChanged):
    """One downloaded statute file is not XML at all, empty, or breaks off (a Git LFS pointer, a truncated
    download): that file is refused and the copy the index holds stays, while the other titles are still
    built. A file that is well-formed XML in a format the parser does not know is ``SchemaChanged`` itself
    and stops the sync (every title would be read wrong)."""


class EmptyTitle(SchemaChanged):
    """A U.S. Code title file with no sections at all (an eliminated appendix, court rules only, or a
    truncated or hostile file): never stored as a title the index covers, never in place of a good copy."""


class DiskSpaceError(CorpusError):
    pass


class SyncBusy(CorpusError):
    pass


class SourceError(CitecheckError):
    pass


class SourceUnavailable(SourceError):
    pass


class TextNotHere(SourceUnavailable):
    """The case is known (the citation index resolved it) but no source this run may use has its opinion
    text: an expected state, reported on the citation (opinion-unavailable), not a fault to log."""


class RateLimited(SourceError):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Deferred(RateLimited):
    """Not sent: the service's allowance (or a hold it asked for) returns only at ``until`` (epoch s),
    after the caller's deadline. The work is pending, not failed."""

    def __init__(self, message: str, until: float) -> None:
        super().__init__(message, retry_after=None)
        self.until = until


class AuthenticationError(SourceError):
    pass


class BadResponse(SourceError):
    pass


class DownloadError(SourceError):
    pass


class ModelError(CitecheckError):
    pass


class ModelUnavailable(ModelError):
    pass


class ModelBadAnswer(ModelError):
    pass
