"""Replies on the wire: ``encode`` (the engine) and ``decode`` (the client) of the reply dataclasses
in ``ai.vocab.results``, so both ends share one definition. ``decode`` checks every field's type and
raises ``ValueError`` with a one-line message for anything else."""

from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from functools import cache
from typing import Any

from ai.vocab import results
from ai.vocab.results import REPLY_TYPES, ErrorReply, Reply

_BY_TYPE: dict[str, type] = {cls.TYPE: cls for cls in REPLY_TYPES}  # type: ignore[attr-defined]


def encode(reply: Reply) -> dict[str, Any]:
    """The JSON object of a reply (``error`` and ``preparing`` leave out an id that is None)."""
    out: dict[str, Any] = {"type": reply.TYPE}
    for field in dataclasses.fields(reply):
        value = getattr(reply, field.name)
        if field.name == "id" and value is None and isinstance(reply, ErrorReply):
            continue
        out[field.name] = _plain(value)
    return out


def dumps(reply: Reply) -> str:
    """One protocol line (no newline); NaN never leaks into the JSON."""
    return json.dumps(encode(reply), separators=(",", ":"), allow_nan=False)


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def decode(obj: Any) -> Reply:
    """The reply a JSON object stands for; ``ValueError`` (one line) when it is not one."""
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown reply type {str(kind)[:40]!r}")
    return typing.cast(Reply, _build(cls, obj, str(kind)))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(results))


def _build(cls: type, obj: dict[str, Any], where: str) -> Any:
    hints = _hints(cls)
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        if field.name in obj:
            values[field.name] = _check(hints[field.name], obj[field.name], f"{where}.{field.name}")
        elif field.default is dataclasses.MISSING:
            raise ValueError(f"{where}: missing {field.name!r}")
    return cls(**values)


def _check(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _check(option, value, where)
            except ValueError:
                continue
        raise ValueError(f"{where}: unexpected {type(value).__name__}")
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if not isinstance(value, list):
            raise ValueError(f"{where}: expected a list")
        return tuple(_check(item, v, f"{where}[]") for v in value)
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise ValueError(f"{where}: expected an object")
        return _build(typing.cast(type, hint), value, where)
    if hint is None:
        hint = type(None)
    accept = _SCALAR_CHECKS.get(hint)
    if accept is not None and accept(value):
        return float(value) if hint is float else value
    raise ValueError(f"{where}: expected {getattr(hint, '__name__', hint)}, got {type(value).__name__}")


_SCALAR_CHECKS: dict[Any, Any] = {
    type(None): lambda v: v is None,
    bool: lambda v: isinstance(v, bool),
    int: lambda v: isinstance(v, int) and not isinstance(v, bool),
    float: lambda v: isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v),
    str: lambda v: isinstance(v, str),
}
