"""Draw the import graph of the project's floors as an SVG (``docs/import-graph.svg``).

    python tools/import_graph.py            # writes docs/import-graph.svg
    python tools/import_graph.py --check    # exit 1 when the committed picture is out of date

The floors are the layers of ``.importlinter`` (top first). Each arrow is a floor importing another,
labelled with the number of direct imports; an arrow drawn red points up (the layers contract forbids
those, so a committed picture has none). Needs grimp (installed with import-linter, a dev tool).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "import-graph.svg"

# (row, floor, caption): the layers contract's order, top first; floors of one row are independent.
FLOORS: list[tuple[int, str, str]] = [
    (0, "game.ui", "desktop app (pygame)"),
    (0, "game.text", "terminal client (rich)"),
    (1, "game.play", "play model: session, settings, files, engine driver"),
    (2, "ai", "engine: client, process, MCTS, solver, book"),
    (3, "game.net", "network protocol, server, client"),
    (4, "game.rules", "pure rules (standard library only)"),
]
BOX_W, BOX_H, ROW_GAP, COL_GAP, MARGIN, MARGIN_Y = 300, 56, 64, 240, 230, 30


def floor_of(module: str) -> str | None:
    for _row, floor, _caption in FLOORS:
        if module == floor or module.startswith(floor + "."):
            return floor
    return None


def floor_imports() -> dict[tuple[str, str], int]:
    import grimp

    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph("game", "ai", cache_dir=None)
    counts: dict[tuple[str, str], int] = {}
    for importer in graph.modules:
        source = floor_of(importer)
        if source is None:
            continue
        for imported in graph.find_modules_directly_imported_by(importer):
            target = floor_of(imported)
            if target is not None and target != source:
                counts[(source, target)] = counts.get((source, target), 0) + 1
    return counts


def _boxes() -> dict[str, tuple[float, float]]:
    """The centre of each floor's box."""
    rows: dict[int, list[str]] = {}
    for row, floor, _caption in FLOORS:
        rows.setdefault(row, []).append(floor)
    width = 2 * BOX_W + COL_GAP
    centres: dict[str, tuple[float, float]] = {}
    for row, floors in rows.items():
        y = MARGIN_Y + row * (BOX_H + ROW_GAP) + BOX_H / 2
        span = len(floors) * BOX_W + (len(floors) - 1) * COL_GAP
        x0 = MARGIN + (width - span) / 2 + BOX_W / 2
        for i, floor in enumerate(floors):
            centres[floor] = (x0 + i * (BOX_W + COL_GAP), y)
    return centres


def render(counts: dict[tuple[str, str], int]) -> str:
    centres = _boxes()
    rank = {floor: row for row, floor, _caption in FLOORS}
    width = 2 * BOX_W + COL_GAP + 2 * MARGIN
    height = MARGIN_Y * 2 + (max(rank.values()) + 1) * (BOX_H + ROW_GAP) - ROW_GAP
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="DejaVu Sans, sans-serif" font-size="13">',
        '<defs><marker id="down" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker>'
        '<marker id="up" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c00"/></marker></defs>',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for index, ((source, target), count) in enumerate(sorted(counts.items())):
        (x1, y1), (x2, y2) = centres[source], centres[target]
        upward = rank[target] <= rank[source]
        colour, marker = ("#c00", "up") if upward else ("#333", "down")
        skip = rank[target] - rank[source]
        sy = y1 + (BOX_H / 2 if y2 > y1 else -BOX_H / 2)
        ty = y2 - (BOX_H / 2 if y2 > y1 else -BOX_H / 2)
        if abs(skip) <= 1:  # to the next floor: a straight arrow
            sx, tx = x1 + (x2 - x1) * 0.25, x2 + (x1 - x2) * 0.25
            out.append(
                f'<line x1="{sx:.0f}" y1="{sy:.0f}" x2="{tx:.0f}" y2="{ty:.0f}" stroke="{colour}" '
                f'stroke-width="1.5" marker-end="url(#{marker})"/>'
            )
            lx, ly = (sx + tx) / 2 + 5, (sy + ty) / 2
        else:  # past floors in between: a curve around them, on the side of the source
            side = -1 if x1 < width / 2 or (x1 == width / 2 and index % 2 == 0) else 1
            reach = BOX_W / 2 + 18 * abs(skip) + 10 * (index % 3)
            cx = width / 2 + side * reach
            sx = x1 + side * BOX_W * 0.35 if x1 == width / 2 else x1 + side * 40
            tx = x2 + side * (BOX_W * 0.3 + 8 * (index % 4))
            cy = (sy + ty) / 2
            out.append(
                f'<path d="M{sx:.0f},{sy:.0f} Q{cx:.0f},{cy:.0f} {tx:.0f},{ty:.0f}" fill="none" '
                f'stroke="{colour}" stroke-width="1.5" marker-end="url(#{marker})"/>'
            )
            lx, ly = (sx + 2 * cx + tx) / 4 + side * 4, (sy + 2 * cy + ty) / 4
        anchor = "end" if lx < width / 2 - BOX_W / 2 else "start"
        out.append(
            f'<text x="{lx:.0f}" y="{ly:.0f}" fill="{colour}" font-size="11" text-anchor="{anchor}">'
            f"{source} -> {target}: {count}</text>"
        )
    for _row, floor, caption in FLOORS:
        x, y = centres[floor]
        out.append(
            f'<rect x="{x - BOX_W / 2:.0f}" y="{y - BOX_H / 2:.0f}" width="{BOX_W}" height="{BOX_H}" rx="8" '
            'fill="#eef3fb" stroke="#36c" stroke-width="1.5"/>'
        )
        out.append(f'<text x="{x:.0f}" y="{y - 4:.0f}" text-anchor="middle" font-weight="bold">{floor}</text>')
        out.append(f'<text x="{x:.0f}" y="{y + 14:.0f}" text-anchor="middle" font-size="11">{caption}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/import-graph.svg is out of date")
    args = parser.parse_args(argv)
    svg = render(floor_imports())
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != svg:
            print(f"{OUT.relative_to(ROOT)} is out of date: run python tools/import_graph.py", file=sys.stderr)
            return 1
        print(f"{OUT.relative_to(ROOT)} is up to date")
        return 0
    OUT.write_text(svg, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
