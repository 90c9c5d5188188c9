"""Writes server/citecheck/serve/static/icons/icon-{16,32,64,80}.png: a blue square with a white check
mark (no image library)."""

import struct
import zlib
from pathlib import Path


def png(size: int) -> bytes:
    blue, white = (0x1F, 0x4E, 0x8C), (0xFF, 0xFF, 0xFF)

    # the check mark: two strokes, from (0.22, 0.52) to (0.42, 0.72) to (0.78, 0.30), in unit coordinates
    def on_stroke(x: float, y: float) -> bool:
        w = 0.085
        for (x0, y0), (x1, y1) in (((0.22, 0.52), (0.42, 0.72)), ((0.42, 0.72), (0.78, 0.30))):
            dx, dy = x1 - x0, y1 - y0
            t = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)))
            if (x - x0 - t * dx) ** 2 + (y - y0 - t * dy) ** 2 <= w * w:
                return True
        return False

    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            row += bytes(white if on_stroke((i + 0.5) / size, (j + 0.5) / size) else blue)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    ihdr = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    out = Path(__file__).parents[2] / "server" / "citecheck" / "serve" / "static" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    for s in (16, 32, 64, 80):
        (out / f"icon-{s}.png").write_bytes(png(s))
