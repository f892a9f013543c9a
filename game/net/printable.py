"""Text from the network, safe to show: control characters escaped.

A hostile server can put terminal escape sequences (``ESC ] 0 ; title BEL``, ``ESC [ 2 J``) into any
text it sends; written raw to a terminal they retitle the window, clear the screen or recolour it, and
pygame cannot draw them either. ``printable`` writes every control character (C0, DEL, C1), every
line or paragraph separator and every bidirectional override as a visible escape (``\\x1b``,
``\\u202e``). Every text field a client decodes goes through it (``game.net.messages``).
"""

from __future__ import annotations

import unicodedata

# Format characters that reorder or hide the text around them (a file name shown backwards).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _unsafe(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI


def printable(text: str) -> str:
    """``text`` with every control character escaped (a backslash stays as it is)."""
    if text.isprintable():  # the common case: nothing to escape (spaces are printable, tabs are not)
        return text
    return "".join(_escaped(char) if _unsafe(char) else char for char in text)


def printable_keys(values: dict[str, float]) -> dict[str, float]:
    """A result's seats (``{"1": 1.0}``) with printable keys."""
    return {printable(key): value for key, value in values.items()}
