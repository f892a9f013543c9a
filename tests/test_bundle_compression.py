"""The one-file build stores its largest libraries uncompressed (tools/pyinstaller/bundle.py): within a byte
budget, the biggest first, everything else compressed, data files untouched."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "pyinstaller"))
bundle = importlib.import_module("bundle")


def _library(folder: Path, name: str, size: int) -> str:
    path = folder / name
    path.write_bytes(os.urandom(size // 2) + bytes(size // 2))  # compresses to about half: raw adds size / 2
    return str(path)


@pytest.mark.timeout(30)
def test_the_largest_libraries_are_stored_raw_within_the_budget(tmp_path: Path) -> None:
    big = _library(tmp_path, "big.so", 600_000)
    middle = _library(tmp_path, "middle.so", 300_000)
    small = _library(tmp_path, "small.so", 100_000)
    book = _library(tmp_path, "book.npz", 900_000)
    binaries = [
        ("small.so", small, "BINARY"),
        ("middle.so", middle, "EXTENSION"),
        ("big.so", big, "BINARY"),
        ("book.npz", book, "DATA"),
    ]
    kinds = {dest: kind for dest, _, kind in bundle.store_largest_raw(binaries, budget=420_000)}
    # big (about 300 KB more) fits; middle (150 KB) would pass the budget; small (50 KB) still fits after it
    assert kinds == {"big.so": bundle.RAW, "middle.so": bundle.PACKED, "small.so": bundle.RAW, "book.npz": "DATA"}
    assert all(kind == bundle.PACKED for dest, _, kind in bundle.store_largest_raw(binaries[:3], budget=0))


@pytest.mark.timeout(30)
def test_only_the_raw_type_is_left_uncompressed() -> None:
    compression = bundle.one_file_compression()
    assert compression[bundle.RAW] is False and compression[bundle.PACKED] is True
    assert compression["DATA"] is True and compression["PYZ"] is False
