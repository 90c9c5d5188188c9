"""``initialize``: settings from initializationOptions, the workspace's ignore list, the trace level.

pygls keeps the trace level ``$/setTrace`` sets (``protocol.trace``) but not the one ``initialize``
asks for; it is taken here (``$/logTrace`` says which versions were checked and which publishes
were skipped, see ``features/diagnostics.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import to_fs_path

from citecheck.errors import ConfigError
from citecheck.ignores.file import IgnoreStore
from citecheck.lsp.features.configuration import section_of

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

METHOD = types.INITIALIZE
OPTIONS = None


def handle(ls: CiteServer, params: types.InitializeParams) -> None:
    ls.protocol.trace = params.trace or types.TraceValue.Off
    ls.init_options = section_of(params.initialization_options)
    try:
        ls.settings = ls.compute_settings(None)
    except ConfigError as exc:
        ls.report_problem("configuration", exc)
    root = params.root_path
    if params.workspace_folders:
        root = to_fs_path(params.workspace_folders[0].uri) or root
    elif params.root_uri:
        root = to_fs_path(params.root_uri) or root
    ls.ignores = IgnoreStore.for_root(root)
