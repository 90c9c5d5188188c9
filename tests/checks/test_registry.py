"""The check registration list (``checks.ALL_CHECKS``): each check is named by a unique id, its module's name
(a module holding two checks names each for what it checks), so a log line points at one rule."""

from __future__ import annotations

import re

from citecheck.checks import ALL_CHECKS, LOCAL_CHECKS, SOURCE_CHECKS


def test_check_ids_are_unique_and_name_their_module() -> None:
    ids = [c.id for c in ALL_CHECKS]
    assert len(ids) == len(set(ids)), ids
    for check in ALL_CHECKS:
        module = type(check).__module__.rsplit(".", 1)[-1]
        assert re.fullmatch(r"[a-z_]+", check.id), check.id
        assert check.id == module or check.id.startswith(module.rstrip("s")), (check.id, module)


def test_every_check_runs_in_exactly_one_wave() -> None:
    assert set(LOCAL_CHECKS) | set(SOURCE_CHECKS) == set(ALL_CHECKS)
    assert not set(LOCAL_CHECKS) & set(SOURCE_CHECKS)
