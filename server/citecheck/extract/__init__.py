"""Citation extraction: document text → every cited authority, with spans into the original text.

    from citecheck.extract import extract_citations, Document, Edit
    extract_citations(text) -> Extraction
    doc = Document(text); doc.apply_edits([Edit(start=..., end=..., new_text=...)]) -> Extraction

Pure: no I/O. Only ``tokenizer.py`` imports eyecite (to read its extractors into a table). See
docs/extraction.md for the rules.
"""

from citecheck.extract.incremental.document import Document, Edit, extract_citations
from citecheck.extract.models import (
    CaseName,
    Citation,
    CiteForm,
    Database,
    Extraction,
    Parenthetical,
    Pincite,
    PinPage,
    Quote,
    Statute,
    StatuteForm,
    StatuteKey,
)

__all__ = [
    "CaseName",
    "Citation",
    "CiteForm",
    "Database",
    "Document",
    "Edit",
    "Extraction",
    "Parenthetical",
    "PinPage",
    "Pincite",
    "Quote",
    "Statute",
    "StatuteForm",
    "StatuteKey",
    "extract_citations",
]
