"""The keystroke machinery: a document being edited, its assembly reusing the previous run, and the
limits that bound both (``thresholds``). Pure: no I/O."""
