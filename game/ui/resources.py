"""Where bundled assets live: found through importlib.resources from a checkout and frozen alike."""

from __future__ import annotations

import importlib.resources
from pathlib import Path


def asset_path(*parts: str) -> Path:
    """A real file path of ``assets/<parts>`` (``assets`` is a package, also in the bundle)."""
    return Path(str(importlib.resources.files("assets").joinpath(*parts)))
