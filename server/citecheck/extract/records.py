"""A faster constructor for the frozen slotted dataclasses extraction makes by the thousand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

_T = TypeVar("_T")


def fast_constructor(cls: type[_T]) -> Callable[..., _T]:
    """A keyword-only constructor for a frozen slotted dataclass that stores the fields directly
    (``_storing``): the same object as ``cls(**kw)`` (fields not passed take their defaults, a
    ``__post_init__`` still runs) at under half the cost of the generated ``__init__``, which sets
    each field through ``object.__setattr__``. Used where many are made: citations (each paragraph's, and
    again moved to the document's offsets on every keystroke), eyecite's hits."""
    import dataclasses

    fields = dataclasses.fields(cast(Any, cls))
    ns, first, store, last = _storing(cls)
    params = []
    body = [first]
    for i, f in enumerate(fields):
        if f.default is not dataclasses.MISSING:
            ns[f"_d{i}"] = f.default
            params.append(f"{f.name}=_d{i}")
        elif f.default_factory is not dataclasses.MISSING:
            ns[f"_f{i}"] = f.default_factory
            params.append(f"{f.name}=None")
            body.append(f"    if {f.name} is None: {f.name} = _f{i}()")
        else:
            params.append(f.name)
        body.append(store(f.name))
    body += last
    exec("def make(*, " + ", ".join(params) + "):\n" + "\n".join(body), ns)
    return cast("Callable[..., _T]", ns["make"])


def positional_constructor(cls: type[_T]) -> Callable[..., _T]:
    """``fast_constructor`` taking every field positionally, in the order of ``dataclasses.fields(cls)``
    (none left to its default): where one is made per citation per run, the thirty keywords of a
    ``Citation`` cost more than storing them (``placing.shift_citation``). The same object as
    ``cls(*values)``."""
    import dataclasses

    fields = dataclasses.fields(cast(Any, cls))
    ns, first, store, last = _storing(cls)
    body = [first] + [store(f.name) for f in fields] + last
    exec("def make(" + ", ".join(f.name for f in fields) + ", /):\n" + "\n".join(body), ns)
    return cast("Callable[..., _T]", ns["make"])


def _writable_twin(cls: type) -> type | None:
    """A plain class with ``cls``'s slots and base, whose fields a generated constructor sets by plain
    attribute stores before the object becomes a ``cls`` (``o.__class__ = cls``): a store is a bytecode,
    where a slot descriptor's ``__set__`` is a call (a ``Citation`` is made in ~0.4 instead of ~1.4 µs;
    thirty fields, twice per citation per extraction). None where CPython would refuse the change of class
    (another layout), or where a base's ``__setattr__`` (a frozen dataclass's) would refuse the stores."""
    slots = cls.__dict__.get("__slots__")
    if not isinstance(slots, tuple) or cls.__bases__ != (object,):
        return None
    twin = type(f"_Writable{cls.__name__}", (object,), {"__slots__": slots, "__module__": cls.__module__})
    try:
        probe: Any = object.__new__(twin)
        probe.__class__ = cls
    except TypeError:
        return None
    return twin


def _storing(
    cls: type,
) -> tuple[dict[str, object], str, Callable[[str], str], list[str]]:
    """The generated constructor's namespace, first line, one field's store and last lines: plain
    stores on a writable twin then the change of class (``_writable_twin``), else each slot
    descriptor's ``__set__``."""
    twin = _writable_twin(cls)
    ns: dict[str, object] = {"_new": object.__new__, "_cls": cls, "_twin": twin}
    last = ["    o.__class__ = _cls"] if twin is not None else []
    if hasattr(cls, "__post_init__"):
        last.append("    o.__post_init__()")
    last.append("    return o")
    if twin is not None:
        return ns, "    o = _new(_twin)", lambda name: f"    o.{name} = {name}", last

    def through_descriptor(name: str) -> str:
        ns[f"_slot_{name}"] = getattr(cls, name).__set__  # the slot's descriptor, in a base maybe
        return f"    _slot_{name}(o, {name})"

    return ns, "    o = _new(_cls)", through_descriptor, last
