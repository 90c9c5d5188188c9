"""``citecheck serve``: the local HTTPS backend of the Word add-in.

One process on the loopback interface serves the task pane's static files and a small JSON API over
the same engine as the command line and the language server (``pipeline.check_document``, the source
chain, the ignore store). Nothing here knows about citations: paragraphs in, the JSON report model
out, with offsets converted to the UTF-16 paragraph positions Word's JavaScript API counts in.
"""
