"""Safe loading of YAML and JSON input: PyYAML's safe (C) loader, duplicate keys refused,
sizes and nesting bounded. Nothing in a file is ever executed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from obverse.errors import InputError

MAX_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64

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
                f"line {key_node.start_mark.line + 1}", str(key), "a mapping key must be a scalar"
            ) from exc
        if key in out:
            raise InputError(f"line {key_node.start_mark.line + 1}", str(key), "duplicate key")
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
            raise InputError("top level", key, "duplicate key")
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
    return InputError(place, key, f"duplicate key (line {line + 1})", path)


def load_text(text: str, path: str = "") -> Any:
    """Parse YAML (or JSON, by a ``.json`` path) text safely."""
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise InputError("top level", "", f"file larger than {MAX_BYTES} bytes", path)
    try:
        if path.endswith(".json"):
            data = json.loads(text, object_pairs_hook=_no_dup_pairs)
        else:
            data = yaml.load(text, Loader=StrictLoader)
    except InputError as exc:
        if exc.message == "duplicate key":
            raise _duplicate_error(text, path) from None
        raise exc.at(path) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"line {exc.lineno}", "", f"invalid JSON: {exc.msg}", path) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f"line {mark.line + 1}" if mark is not None else "top level"
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(place, "", f"invalid YAML: {problem}", path) from None
    except RecursionError:
        raise InputError("top level", "", "nested too deeply", path) from None
    try:
        _depth(data)
    except InputError as exc:
        raise exc.at(path) from None
    return data


def load_file(path: str | Path) -> Any:
    """Read and parse a YAML or JSON file safely."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise InputError("top level", "", f"file larger than {MAX_BYTES} bytes", str(p))
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError("top level", "", "not UTF-8 text", str(p)) from None
    except OSError as exc:
        raise InputError("top level", "", f"cannot read: {exc.strerror}", str(p)) from None
    return load_text(text, str(p))
