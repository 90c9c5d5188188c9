"""``citecheck-lsp``: the language server edge (pygls). The only place LSP types, positions in
client units and the protocol stream exist; the core below it sees code-point spans only.

    __main__.py      command line (stdio only), logging to stderr (redacted)
    wiring.py        every @feature/@command registration, each guarded
    server.py        CiteServer (state, settings, errors) and the protocol class (workspace swap,
                     push-or-pull capability)
    text.py          LSP line rules and edit recording for incremental sync
    positions.py     Span <-> Range in the negotiated encoding (the only place)
    convert.py       Finding -> Diagnostic / CodeAction, rendered-JSON cache
    ignore.py        .citecheck/ignore.json
    source_holder.py the authority source on its own thread and loop
    features/        diagnostics (scheduling), shifting, hover, code actions, commands, citations, progress
"""
