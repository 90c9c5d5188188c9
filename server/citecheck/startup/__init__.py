"""What the edges (``citecheck check``, the language server, batch workers) do so that the first answer
comes quickly: the tokenizer's table read from a cache file instead of being rebuilt from eyecite in
every process (``tokenizer_cache.py``)."""
