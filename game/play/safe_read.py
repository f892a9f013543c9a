"""Read a user's small text file safely: regular files only, a size cap, UTF-8 with or without a BOM.

A FIFO, a device (``/dev/zero``), a socket or a directory is refused in one line *without blocking*:
the file is opened with ``O_NONBLOCK`` (opening a FIFO for reading then returns at once even with no
writer) and the kind is checked with ``fstat`` on the opened descriptor, so a file swapped between a
check and the open cannot slip through. No pygame here.
"""

from __future__ import annotations

import os
import stat

MAX_FILE_BYTES = 1_000_000
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


class NotRegularFileError(ValueError):
    """The path names something that is not a regular file (a FIFO, a device, a directory...)."""


class FileTooLargeError(ValueError):
    """The file is larger than the cap; nothing beyond the cap was read."""


def kind_of(mode: int) -> str:
    """A short name for the kind of file ``mode`` describes."""
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def read_regular_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises NotRegularFileError, FileTooLargeError (both ValueError) or OSError; never blocks on a FIFO
    and never reads more than ``limit + 1`` bytes.
    """
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(f"{os.fsdecode(path)} is {kind_of(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise FileTooLargeError(
                f"{os.fsdecode(path)} is too large ({info.st_size // 1000} kB, at most {limit // 1000} kB)"
            )
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:  # it grew while we read it
        raise FileTooLargeError(f"{os.fsdecode(path)} is too large (over {limit // 1000} kB)")
    return b"".join(chunks)


def decode_text(data: bytes) -> str:
    """UTF-8 text; a leading byte order mark (as Windows Notepad writes) is dropped.
    Raises UnicodeDecodeError (a ValueError)."""
    return data.decode("utf-8-sig")


def read_regular_text(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> str:
    """``decode_text(read_regular_bytes(path, limit))``."""
    return decode_text(read_regular_bytes(path, limit))


def excerpt(text: str, limit: int = 120) -> str:
    """The first line of ``text``, at most ``limit`` characters (an ellipsis marks a cut): error
    messages and notices quote user input through this, so a 100 kB paste never becomes a 100 kB line."""
    head = text[: limit + 1].strip()
    line = head.splitlines()[0] if head else ""
    cut = len(line) > limit or len(text.strip()) > len(head) or len(head) > len(line)
    return (line[: limit - 1] + "…") if len(line) > limit else (line + "…" if cut and line else line)
