"""Draw the app icons (static/cetele/icon-*.png) from the favicon's tally mark, once.

The icons are committed; run this again only when the design changes:

    .venv/bin/python scripts/make_icons.py

Standard library only (zlib for PNG): four strokes and the one across them, as in
static/cetele/favicon.svg, antialiased by each pixel's distance to the nearest stroke.
"maskable" fills the whole square and keeps the mark inside the central safe circle (80 % of
the side), since a launcher may cut the icon to any shape.
"""

import math
import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static" / "cetele"
GREEN = (0x14, 0x53, 0x2D)
WHITE = (0xFF, 0xFF, 0xFF)
# The favicon's drawing, on its 32-unit grid: strokes as segments, with their half-width.
STROKES = [((8, 8), (8, 24)), ((13, 8), (13, 24)), ((18, 8), (18, 24)), ((23, 8), (23, 24))]
STROKES.append(((5, 20), (27, 12)))
HALF_WIDTH = 1.25
CORNER = 6


def segment_distance(px: float, py: float, a: tuple, b: tuple) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def rounded_square_distance(px: float, py: float) -> float:
    """Signed distance to the 32×32 square with rounded corners (negative inside)."""
    qx = abs(px - 16) - (16 - CORNER)
    qy = abs(py - 16) - (16 - CORNER)
    outside = math.hypot(max(qx, 0), max(qy, 0))
    return outside + min(max(qx, qy), 0) - CORNER


def draw(size: int, maskable: bool) -> bytes:
    unit = 32 / size  # grid units per pixel
    scale = 0.78 if maskable else 1.0  # the mark shrinks into the maskable safe circle
    rows = []
    for y in range(size):
        row = bytearray([0])  # PNG filter: none
        for x in range(size):
            gx, gy = (x + 0.5) * unit, (y + 0.5) * unit
            if maskable:
                background = 1.0
            else:
                background = min(1.0, max(0.0, 0.5 - rounded_square_distance(gx, gy) / unit))
            mx, my = 16 + (gx - 16) / scale, 16 + (gy - 16) / scale
            nearest = min(segment_distance(mx, my, a, b) for a, b in STROKES)
            ink = min(1.0, max(0.0, 0.5 - (nearest - HALF_WIDTH) * scale / unit))
            colour = [round(g + (w - g) * ink) for g, w in zip(GREEN, WHITE, strict=True)]
            row += bytes(colour) + bytes([round(255 * background)])
        rows.append(bytes(row))
    return png(size, b"".join(rows))


def png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    for name, size, maskable in [
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ]:
        data = draw(size, maskable)
        (STATIC / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
