"""``IdentityMap``: values kept for objects by identity — the one way the incremental core and the language
server remember something about an object a run hands on unchanged (a paragraph's result, a finding).

Hashing or comparing such objects costs what remembering should save (a result holds a paragraph's
citations; a finding its evidence and fixes), and the same object is the same answer. A bare ``id()`` key
is not enough: an object freed and another made at its address would inherit its entry. The map holds each
object with its value and answers only for that very object.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityMap(Generic[K, V]):
    """A mapping from objects, by identity, to values.

    >>> a, b = [1], [1]
    >>> m: IdentityMap[list[int], str] = IdentityMap()
    >>> m[a] = "a"
    >>> m.get(a), m.get(b), a in m, b in m, len(m)
    ('a', None, True, False, 1)
    >>> m.at(IdentityMap.key(a))
    'a'
    """

    __slots__ = ("_by_id",)

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[K, V]] = {}

    @staticmethod
    def key(obj: object) -> int:
        """The key an object is kept under (for sets of keys kept beside the map)."""
        return id(obj)

    def get(self, obj: K) -> V | None:
        hit = self._by_id.get(id(obj))
        return hit[1] if hit is not None and hit[0] is obj else None

    def at(self, key: int) -> V:
        """The value kept under ``key`` (a key this map gave out)."""
        return self._by_id[key][1]

    def __setitem__(self, obj: K, value: V) -> None:
        self._by_id[id(obj)] = (obj, value)

    def __contains__(self, obj: object) -> bool:
        hit = self._by_id.get(id(obj))
        return hit is not None and hit[0] is obj

    def __len__(self) -> int:
        return len(self._by_id)

    def items(self) -> Iterator[tuple[K, V]]:
        return iter(self._by_id.values())


__all__ = ["IdentityMap"]
