"""Is a cited case still good law? What later courts did to it, read from tables and opinions' own words.

Pure (no I/O): the records (``models``), the Congress.gov table's parser (``table``) and the reader of
explicit negative treatment (``language``). The sources that build and read the data are in
``sources/treatment/``; the check that raises ``overruled`` and ``negatively-treated`` reads their answers.
"""
