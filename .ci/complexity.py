"""The complexity gate of .ci/run: cyclomatic complexity counted with boolean operators (radon), which
ruff's C90 does not count (an ``a and b or c`` chain is three branches to a reader, none to C90).

    python .ci/complexity.py            # the gate: exit 1 when a limit is passed
    python .ci/complexity.py --list 15  # every function at 15 or more, most complex first

Limits (issue 34): at most ``MAX_OVER`` (10) functions above ``OVER`` (20), and none above ``CEILING`` (30). Both
are met with room (the code has fewer); a function you add above 20 that passes the limit needs one split
elsewhere, or to be split itself. Splitting is the way down, never raising a limit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "server" / "citecheck"
OVER = 20
MAX_OVER = 10  # issue 34's limit
CEILING = 30  # issue 34's limit


def functions(package: Path = PACKAGE) -> list[tuple[int, str]]:
    """(complexity, ``path:Class.function``) of every function and method, closures included."""
    out: list[tuple[int, str]] = []

    def add(block: Function | Class, where: str, prefix: str = "") -> None:
        if isinstance(block, Class):
            for m in block.methods:
                add(m, where, f"{block.name}.")
            return
        out.append((block.complexity, f"{where}:{prefix}{block.name}"))
        for inner in block.closures:
            add(inner, where, f"{prefix}{block.name}.")

    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package.parent).as_posix()
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if isinstance(block, Function) and block.is_method:
                continue  # reached through its class
            add(block, where)
    return sorted(out, reverse=True)


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--list", type=int, metavar="N", help="print every function at complexity N or more")
    opts = args.parse_args(argv)
    found = functions()
    if opts.list is not None:
        for cc, name in found:
            if cc >= opts.list:
                print(f"{cc:4d}  {name}")
        return 0
    over = [(cc, n) for cc, n in found if cc > OVER]
    worst = [(cc, n) for cc, n in found if cc > CEILING]
    ok = len(over) <= MAX_OVER and not worst
    print(
        f"complexity (radon, boolean operators counted): {len(over)} functions over {OVER} (at most {MAX_OVER}), "
        f"{len(worst)} over {CEILING} (none allowed)"
    )
    if not ok:
        for cc, name in over:
            print(f"{cc:4d}  {name}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
