"""Where a finding kind is explained: the words shipped with citecheck, and a link only where the installed
package declares one; an edge (reads the installed package's metadata once).

Issue 36: every report and the editors linked "What this finding means" to a github.com page the project
does not declare. The explanation travels with the report now (``findings.KIND_DOCS``), and a link is added
only when the distribution declares a ``Documentation`` URL in ``[project.urls]`` (pyproject.toml): its
``#kind`` anchor is the section of docs/findings.md, which ships in the source tree.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata

from citecheck.findings import KIND_DOCS, Kind

DISTRIBUTION = "citecheck-legal"


@cache
def declared_docs_url() -> str | None:
    """The ``Documentation`` URL the installed distribution declares, if any."""
    try:
        urls = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "documentation" and url.strip().startswith("https://"):
            return url.strip()
    return None


def docs_url(kind: Kind | str) -> str | None:
    """The declared documentation's section for ``kind``, or None when the package declares none."""
    base = declared_docs_url()
    return f"{base}#{Kind(kind).value}" if base else None


def what_it_means(kind: Kind | str) -> str:
    """One sentence on what a finding of this kind says (docs/findings.md has the rest)."""
    try:
        return KIND_DOCS[Kind(kind)]
    except (KeyError, ValueError):
        return ""
