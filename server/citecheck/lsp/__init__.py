"""``citecheck-lsp``: the language server edge (pygls). The only place LSP types, positions in
client units and the protocol stream exist; the core below it sees code-point spans only.

    __main__.py      command line (stdio only), logging to stderr (redacted), the collector tuned once
    wiring.py        one short handler per LSP method, their registration, and the commands
    server.py        CiteServer (state, settings, errors, the one executor) and the protocol class
                     (workspace swap, ClientCaps resolved once)
    capabilities.py  ClientCaps: what the client can do (push or pull, data, progress, refresh, ...)
    sources.py       the one open case-law source, on the server's loop (and its local-only view)
    text.py          LSP line rules and edit recording for incremental sync
    positions.py     Span <-> Range in the negotiated encoding (the only place)
    convert.py       Finding -> Diagnostic / CodeAction, rendered-JSON cache
    features/        diagnostics (scheduling), shifting, hover, code actions, commands, citations,
                     configuration, progress
"""
