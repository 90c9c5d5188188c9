"""What the client can do, resolved once at ``initialize`` into one typed value.

Every later decision (push or pull, related information, ``data`` on diagnostics, progress,
re-pull requests, configuration requests) reads these fields instead of walking the client's
capability tree again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lsprotocol import types


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientCaps:
    pull: bool = False  # diagnostics are pulled (textDocument/diagnostic) instead of pushed
    related_information: bool = False
    code_description: bool = False
    data: bool = False  # the client echoes Diagnostic.data back in code-action requests
    progress: bool = False  # window/workDoneProgress
    refresh: bool = False  # workspace/diagnostic/refresh
    configuration: bool = False  # workspace/configuration requests
    dynamic_configuration: bool = False  # may register for didChangeConfiguration
    #: the client moves the diagnostics it shows through the user's edits itself (VS Code's markers
    #: do), said as ``experimental.citecheck.movesDiagnostics``: no publish is needed just to move them
    moves_diagnostics: bool = False

    @classmethod
    def of(cls, caps: types.ClientCapabilities | None) -> ClientCaps:
        """Pull only when the client can pull AND can be told to re-pull.

        Source-backed findings arrive seconds after the edit; a pull client without
        ``workspace/diagnostic/refresh`` would not see them until the next keystroke, so such a
        client (Neovim 0.10/0.11) gets push instead.
        """
        if caps is None:
            return cls()
        td, ws, win = caps.text_document, caps.workspace, caps.window
        diagnostic = td.diagnostic if td is not None else None
        refresh = bool(ws is not None and ws.diagnostics is not None and ws.diagnostics.refresh_support)
        pull = diagnostic is not None and refresh
        # a pull client that does not say is assumed to render related information and code links
        kind = diagnostic if pull else (td.publish_diagnostics if td is not None else None)
        related = _flag(kind.related_information if kind else None, pull)
        description = _flag(kind.code_description_support if kind else None, pull)
        data = _flag(kind.data_support if kind else None, False)
        dcc = ws.did_change_configuration if ws is not None else None
        return cls(
            pull=pull,
            related_information=related,
            code_description=description,
            data=data,
            progress=bool(win is not None and win.work_done_progress),
            refresh=refresh,
            configuration=bool(ws is not None and ws.configuration),
            dynamic_configuration=bool(dcc is not None and dcc.dynamic_registration),
            moves_diagnostics=_ours(caps.experimental).get("movesDiagnostics") is True,
        )


def _ours(experimental: Any) -> Mapping[str, Any]:
    """``experimental.citecheck`` of the client's capabilities (anything else there: nothing)."""
    got = experimental.get("citecheck") if isinstance(experimental, Mapping) else None
    return got if isinstance(got, Mapping) else {}


def _flag(value: bool | None, default: bool) -> bool:
    return default if value is None else bool(value)


__all__ = ["ClientCaps"]
