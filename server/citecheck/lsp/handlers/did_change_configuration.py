"""``workspace/didChangeConfiguration``: new settings; re-check open documents when they differ."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from lsprotocol import types

from citecheck.lsp.features.configuration import apply_workspace_configuration, section_of

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

METHOD = types.WORKSPACE_DID_CHANGE_CONFIGURATION
OPTIONS = None


async def handle(ls: CiteServer, params: types.DidChangeConfigurationParams) -> None:
    settings = params.settings
    section = section_of(settings) if isinstance(settings, Mapping) and settings else None
    await ls.guarded("configuration", apply_workspace_configuration)(ls, section)
