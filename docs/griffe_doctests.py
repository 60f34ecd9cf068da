"""A Griffe extension: doctest examples in docstrings render as Python console code.

The docstrings use bare ``>>>`` examples (run by ``doctest``), which Markdown would read as
nested block quotes; this wraps each run of them in a ``pycon`` fence before rendering.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with every paragraph that starts with ``>>>`` fenced as ``pycon``."""
    lines = text.split("\n")
    out: list[str] = []
    in_fence = False
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        if in_fence or not stripped.startswith(">>>"):
            out.append(lines[i])
            i += 1
            continue
        indent = lines[i][: len(lines[i]) - len(stripped)]
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():  # the example runs to the next blank line
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctest examples of every object's docstring."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring as each object is loaded."""
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
