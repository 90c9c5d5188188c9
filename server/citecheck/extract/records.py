"""A faster constructor for the frozen slotted dataclasses extraction makes by the thousand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

_T = TypeVar("_T")


def fast_constructor(cls: type[_T]) -> Callable[..., _T]:
    """A keyword-only constructor for a frozen slotted dataclass that stores the fields through the
    slot descriptors: the same object as ``cls(**kw)`` (fields not passed take their defaults, a
    ``__post_init__`` still runs) at under half the cost of the generated ``__init__``, which sets
    each field through ``object.__setattr__``. Used where many are made: citations (each paragraph's, and
    again moved to the document's offsets on every keystroke), eyecite's hits."""
    import dataclasses

    fields = dataclasses.fields(cast(Any, cls))
    ns: dict[str, object] = {"_new": object.__new__, "_cls": cls}
    params = []
    body = ["    o = _new(_cls)"]
    for i, f in enumerate(fields):
        ns[f"_s{i}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            ns[f"_d{i}"] = f.default
            params.append(f"{f.name}=_d{i}")
        elif f.default_factory is not dataclasses.MISSING:
            ns[f"_f{i}"] = f.default_factory
            params.append(f"{f.name}=None")
            body.append(f"    if {f.name} is None: {f.name} = _f{i}()")
        else:
            params.append(f.name)
        body.append(f"    _s{i}(o, {f.name})")
    if hasattr(cls, "__post_init__"):
        body.append("    o.__post_init__()")
    body.append("    return o")
    exec("def make(*, " + ", ".join(params) + "):\n" + "\n".join(body), ns)
    return cast("Callable[..., _T]", ns["make"])


def positional_constructor(cls: type[_T]) -> Callable[..., _T]:
    """``fast_constructor`` taking every field positionally, in the order of ``dataclasses.fields(cls)``
    (none left to its default): where one is made per citation per run, the thirty keywords of a
    ``Citation`` cost more than storing them (``placing.shift_citation``). The same object as
    ``cls(*values)``."""
    import dataclasses

    fields = dataclasses.fields(cast(Any, cls))
    ns: dict[str, object] = {"_new": object.__new__, "_cls": cls}
    body = ["    o = _new(_cls)"]
    for i, f in enumerate(fields):
        ns[f"_s{i}"] = cls.__dict__[f.name].__set__
        body.append(f"    _s{i}(o, {f.name})")
    if hasattr(cls, "__post_init__"):
        body.append("    o.__post_init__()")
    body.append("    return o")
    exec("def make(" + ", ".join(f.name for f in fields) + ", /):\n" + "\n".join(body), ns)
    return cast("Callable[..., _T]", ns["make"])
