"""Safe loading of YAML and JSON input: PyYAML's safe (C) loader, duplicate keys refused,
sizes, nesting and alias expansion bounded. Nothing in a file is ever executed.

Limits (see docs/decisions.md, "Input limits"): a file or stream is read up to
:data:`MAX_BYTES` and refused beyond; only regular files and ``-`` (standard input) are read;
nesting deeper than :data:`MAX_DEPTH` is refused before the document is built (libyaml's
composer recurses in C); YAML aliases may reach at most :data:`MAX_ALIAS_NODES` nodes in all.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import IO, Any

import yaml

from obverse.errors import InputError, quote, shorten

MAX_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
#: Nodes a document may reach through aliases, counting every expansion (a "billion laughs"
#: file reaches billions; a scenario reusing a few steps reaches dozens).
MAX_ALIAS_NODES = 1000
STDIN = "-"

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class StrictLoader(_Base):  # type: ignore[misc]
    """Safe loader that refuses duplicate mapping keys."""


def _construct_mapping(loader: Any, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            hash(key)
        except TypeError as exc:
            raise InputError(
                f"line {key_node.start_mark.line + 1}",
                quote(key),
                "a mapping key must be a scalar",
            ) from exc
        if key in out:
            raise InputError(
                f"line {key_node.start_mark.line + 1}", shorten(str(key)), "duplicate key"
            )
        out[key] = loader.construct_object(value_node, deep=deep)
    return out


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class RawFloat(float):
    """A YAML float that remembers how it was written: ``cites: [712.10]`` stays "712.10"."""

    text: str

    def __str__(self) -> str:
        return self.text


def _construct_float(loader: Any, node: yaml.ScalarNode) -> float:
    value = RawFloat(yaml.SafeLoader.construct_yaml_float(loader, node))
    value.text = node.value
    return value


StrictLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)

#: The largest integer a stored value may be, either sign (SQLite's and JSON's 64 bits):
#: what each key accepts is the validator's to say (naming step and key).
MAX_INT = 2**63 - 1
#: Digits past which an integer in a file is refused where it is written (no key takes
#: one; ``int()`` of 4,300 digits or more raises, and takes quadratic time before).
MAX_DIGITS = 100


def _digits_error(place: str) -> InputError:
    return InputError(place, "", f"integer of more than {MAX_DIGITS} digits")


def _construct_int(loader: Any, node: yaml.ScalarNode) -> int:
    if len(node.value) > MAX_DIGITS:  # refused before int() sees it
        raise _digits_error(f"line {node.start_mark.line + 1}")
    return int(yaml.SafeLoader.construct_yaml_int(loader, node))


StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def bounded_int(text: str, limit: int = MAX_DIGITS) -> int:
    """A JSON integer of at most ``limit`` digits (``json.loads(parse_int=...)``);
    ValueError otherwise."""
    if len(text.lstrip("-")) > limit:
        raise ValueError(f"integer of more than {limit} digits")
    return int(text)


def _depth(value: Any, limit: int = MAX_DEPTH) -> None:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            raise InputError("top level", "", f"nested deeper than {limit} levels")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


def _no_dup_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputError("top level", shorten(key), "duplicate key")
        out[key] = value
    return out


_SECTIONS = {"steps": "step {}", "setup": "setup[{}]", "cards": "cards[{}]"}


def _find_duplicate(node: yaml.Node) -> tuple[int, str] | None:
    """The line and key of the first duplicate mapping key under ``node``."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in item.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        return key.start_mark.line, key.value
                    seen.add(key.value)
                stack.append(value)
        elif isinstance(item, yaml.SequenceNode):
            stack.extend(item.value)
    return None


def _duplicate_error(text: str, path: str) -> InputError:
    """A duplicate-key error naming the scenario place (``step N``, ``setup[N]`` ...)."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        root = None
    found = _find_duplicate(root) if root is not None else None
    if root is None or found is None:
        return InputError("top level", "", "duplicate key", path)
    line, key = found
    place = "top level"
    if isinstance(root, yaml.MappingNode):
        for k, v in root.value:
            if getattr(k, "value", None) in _SECTIONS and isinstance(v, yaml.SequenceNode):
                for i, item in enumerate(v.value, 1):
                    if item.start_mark.line <= line <= item.end_mark.line:
                        place = _SECTIONS[k.value].format(i)
    return InputError(place, shorten(key), f"duplicate key (line {line + 1})", path)


class _Frame:
    """An open mapping or sequence while scanning: nodes so far, expanded size, last key."""

    __slots__ = ("anchor", "count", "key", "mapping", "size")

    def __init__(self, mapping: bool, anchor: str | None) -> None:
        self.mapping = mapping
        self.anchor = anchor
        self.count = 0
        self.size = 1
        self.key = ""


def _scan(text: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and aliases reaching more than
    :data:`MAX_ALIAS_NODES` nodes, from libyaml's event stream (iterative and cheap, unlike
    composing: libyaml's composer recurses in C and a "billion laughs" expands exponentially).
    Each alias counts the expanded size of its anchor's node, aliases inside included."""
    sizes: dict[str, int] = {}
    stack: list[_Frame] = []
    reached = 0

    def fail(event: Any, message: str) -> InputError:
        key = next((f.key for f in reversed(stack) if f.key), "")
        return InputError(f"line {event.start_mark.line + 1}", key, message)

    def close(size: int, anchor: str | None, scalar: str | None = None) -> None:
        if anchor is not None:
            sizes[anchor] = size
        if stack:
            top = stack[-1]
            if top.mapping and top.count % 2 == 0:
                top.key = shorten(scalar) if scalar is not None else ""
            top.count += 1
            top.size += size

    events = yaml.parse(text, Loader=_Base)
    while True:
        try:
            event = next(events, None)
        except yaml.MarkedYAMLError as exc:
            # Newer libyaml stops deep flow nesting in its scanner, ahead of the events: the
            # same refusal as ours, named by the key being read.
            if "nesting depth" not in str(exc.problem) or exc.problem_mark is None:
                raise
            key = next((f.key for f in reversed(stack) if f.key), "")
            line = f"line {exc.problem_mark.line + 1}"
            raise InputError(line, key, f"nested deeper than {MAX_DEPTH} levels") from None
        if event is None:
            break
        if isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= MAX_DEPTH:
                raise fail(event, f"nested deeper than {MAX_DEPTH} levels")
            stack.append(_Frame(isinstance(event, yaml.MappingStartEvent), event.anchor))
        elif isinstance(event, yaml.CollectionEndEvent):
            done = stack.pop()
            close(done.size, done.anchor)
        elif isinstance(event, yaml.ScalarEvent):
            close(1, event.anchor, event.value)
        elif isinstance(event, yaml.AliasEvent):
            anchor = event.anchor or ""
            if any(f.anchor == anchor for f in stack):
                raise fail(event, f"alias *{shorten(anchor, 40)} refers to itself")
            size = sizes.get(anchor, 1)  # an undefined alias is the parser's error
            reached += size
            if reached > MAX_ALIAS_NODES:
                raise fail(
                    event,
                    f"aliases expand to more than {MAX_ALIAS_NODES} nodes"
                    " (YAML aliases are limited: write the repeated part out)",
                )
            close(size, None)


def _too_large(limit: int, path: str) -> InputError:
    return InputError("top level", "", f"file too large (over {limit // (1024 * 1024)} MiB)", path)


def load_text(text: str, path: str = "") -> Any:
    """Parse YAML (or JSON, by a ``.json`` path) text safely; errors are :class:`InputError`
    naming ``path``, the line or place and the key."""
    if len(text) > MAX_BYTES or (
        len(text) * 4 > MAX_BYTES and len(text.encode("utf-8", "replace")) > MAX_BYTES
    ):
        raise _too_large(MAX_BYTES, path)
    try:
        if path.endswith(".json"):
            data = json.loads(text, object_pairs_hook=_no_dup_pairs, parse_int=bounded_int)
        else:
            _scan(text)
            data = yaml.load(text, Loader=StrictLoader)
    except InputError as exc:
        if exc.message == "duplicate key":
            raise _duplicate_error(text, path) from None
        raise exc.at(path) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"line {exc.lineno}", "", f"invalid JSON: {exc.msg}", path) from None
    except ValueError as exc:  # an integer out of range
        raise InputError("top level", "", f"invalid JSON: {exc}", path) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f"line {mark.line + 1}" if mark is not None else "top level"
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(place, "", f"invalid YAML: {problem}", path) from None
    except RecursionError:
        raise InputError("top level", "", f"nested deeper than {MAX_DEPTH} levels", path) from None
    try:
        _depth(data)
    except InputError as exc:
        raise exc.at(path) from None
    return data


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def _read_at_most(stream: IO[bytes], limit: int, path: str) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise _too_large(limit, path)
    return data


def read_text(path: str | Path, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of a regular file, or of standard input for ``-``, read up to ``limit``
    bytes: a larger input, a device, pipe or directory, or bytes that aren't UTF-8 are an
    :class:`InputError` naming the file (nothing beyond ``limit`` is read)."""
    name = str(path)
    if name == STDIN:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputError("top level", "", "standard input is not open", name)
        data = _read_at_most(stream, limit, name)
    else:
        try:
            info = os.stat(path)
            kind = next((what for test, what in _KINDS if test(info.st_mode)), None)
            if kind is not None or not stat.S_ISREG(info.st_mode):
                raise InputError("top level", "", f"not a regular file ({kind or 'special'})", name)
            if info.st_size > limit:
                raise _too_large(limit, name)
            with open(path, "rb") as stream:
                data = _read_at_most(stream, limit, name)
        except OSError as exc:
            raise InputError("top level", "", f"cannot read: {exc.strerror}", name) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError("top level", "", f"not UTF-8 text (byte {exc.start})", name) from None
    # Universal newlines, as text-mode reading gave before.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def load_file(path: str | Path) -> Any:
    """Read (:func:`read_text`) and parse (:func:`load_text`) a YAML or JSON file safely;
    ``-`` reads standard input (as YAML)."""
    return load_text(read_text(path), str(path))
