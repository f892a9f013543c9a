"""The README's shipping figures (sizes, times) are quoted from the measuring tools' recorded output
(docs/release-figures.txt, written by tools/record_release_figures.sh), never typed by hand."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = ("## Building the executable", "## Cutting a release")
FIGURE = re.compile(r"\b\d+(?:\.\d+)? (?:MB|MiB|s)\b")


def shipping_text() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    parts = []
    for title in SECTIONS:
        start = readme.index(title)
        end = readme.find("\n## ", start + len(title))
        parts.append(readme[start : end if end >= 0 else None])
    return "\n".join(parts)


def test_every_shipping_figure_of_the_readme_is_in_the_recorded_output() -> None:
    recorded = (ROOT / "docs" / "release-figures.txt").read_text(encoding="utf-8")
    assert "listing: no numba, no llvmlite" in recorded, "not the output of tools/measure_bundle.py"
    figures = FIGURE.findall(shipping_text())
    assert len(figures) >= 5, figures
    missing = [f for f in figures if f not in recorded]
    assert not missing, f"README figures not in docs/release-figures.txt: {missing}"
