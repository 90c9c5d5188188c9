"""One module per LSP capability; each takes the server and plain values, and returns LSP types."""
