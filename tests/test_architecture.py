"""The package's shape: the import graph of ``obverse.*`` has no cycle and points one way
through four layers (core ← rules ← engine ← surfaces), rulesets never reach the engine,
imports inside functions are only for optional extras, and no module is over 900 lines.

The graph is read with :mod:`ast` from the source, imports inside functions included and
imports under ``if TYPE_CHECKING:`` left out (they never run)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from obverse import registry

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "obverse"
MAX_LINES = 900
#: Third-party packages only some installs have: a function may import them (or an obverse
#: module that needs them) so the rest works without them.
OPTIONAL_EXTRAS = frozenset({"ray", "starlette", "uvicorn", "httpx", "playwright", "chess"})

#: The layers, lowest first; ``name.*`` is a package and everything in it. A module may
#: import only from its own layer or a lower one.
LAYERS: dict[str, tuple[str, ...]] = {
    # Data and the vocabulary: cards, states, rulings, the typed actions, the registry
    # (which imports games by name only when asked), YAML loading and bundled card data.
    "core": (
        "obverse.cards",
        "obverse.memo",
        "obverse.state",
        "obverse.rulings",
        "obverse.errors",
        "obverse.mana",
        "obverse.vocab",
        "obverse.registry",
        "obverse.loader",
        "obverse.carddata",
        "obverse.data",
    ),
    # The games: hooks, switches and procedures, and the characteristics they compute.
    "rules": ("obverse.characteristics", "obverse.rulesets.*"),
    # The kernel's entry point and what drives it: apply, legal actions, views, Game.
    "engine": (
        "obverse.fastoffers",
        "obverse.offer_kept",
        "obverse.offer_reference",
        "obverse.engine",
        "obverse.views",
        "obverse.game",
        "obverse.play",
        "obverse.serialize",
        "obverse.sampling",
    ),
    # Everything a user or tool touches: scenarios, CLI, web, fuzzing, importers.
    "surfaces": (
        "obverse",
        "obverse.scenario",
        "obverse.steps",
        "obverse.runner",
        "obverse.cli",
        "obverse.console",
        "obverse.completion",
        "obverse.cardcli",
        "obverse.cardinfo",
        "obverse.schema",
        "obverse.carddb",
        "obverse.fuzz",
        "obverse.testing",
        "obverse.bench",
        "obverse.bench_node",
        "obverse.importers.*",
        "obverse.web.*",
        "obverse.__main__",
    ),
}
RANK = {name: i for i, name in enumerate(LAYERS)}


@dataclass(frozen=True)
class Import:
    """One import in a module: the obverse module (or top-level package) it names."""

    target: str
    line: int
    in_function: bool


def module_name(path: Path) -> str:
    """``obverse.rulesets.mtg`` for src/obverse/rulesets/mtg.py (a package by its name)."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, in_function: bool = False) -> Iterator[tuple[ast.AST, bool]]:
    """Every node under ``node`` with whether it is inside a function, skipping the bodies
    of ``if TYPE_CHECKING:`` (their ``else`` runs)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for sub in child.orelse:
                yield sub, in_function
                yield from _walk(sub, in_function)
            continue
        inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
        yield child, inside
        yield from _walk(child, inside)


def imports(name: str, path: Path, known: set[str]) -> list[Import]:
    """The imports of one module: ``from obverse import x`` names obverse.x when x is a
    module, ``from obverse.a import b`` names obverse.a.b if that is a module, else
    obverse.a; third-party imports are named by their top-level package."""
    found: list[Import] = []
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node, in_function in _walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        for target in targets:
            top = target.split(".")[0]
            found.append(Import(target if top == "obverse" else top, node.lineno, in_function))
    return found


def graph() -> dict[str, list[Import]]:
    """Each module's imports (obverse modules and third-party packages)."""
    mods = modules()
    known = set(mods)
    return {name: imports(name, path, known) for name, path in mods.items()}


def edges(g: dict[str, list[Import]]) -> dict[str, set[str]]:
    """The obverse-to-obverse edges of the graph."""
    return {m: {i.target for i in imps if i.target.startswith("obverse")} for m, imps in g.items()}


def find_cycle(adjacency: dict[str, set[str]]) -> list[str] | None:
    """A cycle as ``[a, b, ..., a]``, or ``None`` (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for root in sorted(adjacency):
        if state.get(root):
            continue
        path = [root]
        stack = [iter(sorted(adjacency.get(root, ())))]
        state[root] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(adjacency.get(nxt, ()))))
    return None


def layer_of(module: str) -> str | None:
    """The layer a module belongs to, or ``None`` when no layer lists it."""
    for layer, patterns in LAYERS.items():
        for p in patterns:
            if module == p or (p.endswith(".*") and (module + ".").startswith(p[:-1])):
                return layer
            if p.endswith(".*") and module == p[:-2]:
                return layer
    return None


def layer_violations(adjacency: dict[str, set[str]]) -> list[str]:
    """Edges from a module to a module of a higher layer, as readable lines."""
    out = []
    for module, targets in sorted(adjacency.items()):
        for target in sorted(targets):
            here, there = layer_of(module), layer_of(target)
            if here and there and RANK[there] > RANK[here]:
                out.append(f"{module} ({here}) imports {target} ({there})")
    return out


def needs_extra(module: str, g: dict[str, list[Import]], seen: set[str] | None = None) -> bool:
    """Whether importing ``module`` imports an optional extra (through top-level imports)."""
    seen = seen if seen is not None else set()
    if module in seen or module not in g:
        return False
    seen.add(module)
    for imp in g[module]:
        if imp.in_function:
            continue
        if imp.target in OPTIONAL_EXTRAS or needs_extra(imp.target, g, seen):
            return True
    return False


# --- the checks ------------------------------------------------------------------------------

GRAPH = graph()
EDGES = edges(GRAPH)


def test_the_graph_is_read() -> None:
    # Known edges, so a reader that finds nothing can't pass the checks below.
    assert "obverse.registry" in EDGES["obverse.engine"]
    assert "obverse.vocab" in EDGES["obverse.rulesets.base"]  # `from obverse import vocab`
    assert "obverse.rulesets.base" in EDGES["obverse.engine"]  # `from obverse.x.y import Z`
    assert "obverse.rulesets.base" not in EDGES["obverse.registry"]  # only if TYPE_CHECKING
    assert any(i.in_function for imps in GRAPH.values() for i in imps)


def test_every_module_has_a_layer() -> None:
    unplaced = [m for m in GRAPH if layer_of(m) is None]
    assert not unplaced, f"put these modules in a layer of LAYERS: {unplaced}"


def test_no_import_cycle() -> None:
    cycle = find_cycle(EDGES)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_layers_point_one_way() -> None:
    bad = layer_violations(EDGES)
    assert not bad, "imports from a higher layer:\n" + "\n".join(bad)


def test_rulesets_never_import_the_engine_layer() -> None:
    engine = set(LAYERS["engine"]) | set(LAYERS["surfaces"])
    bad = [
        f"{m} imports {t}"
        for m, targets in EDGES.items()
        if layer_of(m) == "rules"
        for t in targets
        if layer_of(t) in ("engine", "surfaces") or t in engine
    ]
    assert not bad, "\n".join(bad)


def test_function_level_imports_only_for_optional_extras() -> None:
    bad = sorted(
        {
            f"{m}:{i.line} imports {i.target} inside a function"
            for m, imps in GRAPH.items()
            for i in imps
            if i.in_function and i.target.startswith("obverse") and not needs_extra(i.target, GRAPH)
        }
    )
    why = "move to the top of the module (no optional extra needs it):\n"
    assert not bad, why + "\n".join(bad)


@pytest.mark.parametrize("module", sorted(modules()))
def test_module_size(module: str) -> None:
    lines = len(modules()[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines (at most {MAX_LINES})"


#: At most this many parameters a call may pass by position (``self``/``cls`` not counted):
#: past it, pass a struct (the action, a context) or make the options keyword-only.
MAX_POSITIONAL = 6


def wide_signatures(source: str, limit: int = MAX_POSITIONAL) -> list[tuple[str, int, int]]:
    """Every function of ``source`` taking more than ``limit`` positional parameters, as
    ``(name, line, count)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            params = [*node.args.posonlyargs, *node.args.args]
            count = len(params) - (bool(params) and params[0].arg in ("self", "cls"))
            if count > limit:
                found.append((node.name, node.lineno, count))
    return found


def test_no_function_takes_more_than_six_positional_parameters() -> None:
    bad = [
        f"{module}:{line} {name} takes {count} positional parameters"
        for module, path in sorted(modules().items())
        for name, line, count in wide_signatures(path.read_text(encoding="utf-8"))
    ]
    why = f"at most {MAX_POSITIONAL}: pass a struct or make the options keyword-only:\n"
    assert not bad, why + "\n".join(bad)


# --- the checkers themselves ---------------------------------------------------------------


def test_wide_signatures_count_positional_parameters_only() -> None:
    src = (
        "def seven(a, b, c, d, e, f, g): ...\n"
        "def six_and_options(a, b, c, d, e, f, *, g=1, h=2): ...\n"
        "class K:\n"
        "    def method(self, a, b, c, d, e, f): ...\n"
        "    def wide(self, a, b, c, d, e, f, g, /, h=0): ...\n"
    )
    assert wide_signatures(src) == [("seven", 1, 7), ("wide", 5, 8)]


def test_find_cycle_reports_the_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "d": {"a", "c"}}) is None


def test_layer_violations_name_the_edge() -> None:
    found = layer_violations({"obverse.rulesets.toy": {"obverse.engine", "obverse.state"}})
    assert found == ["obverse.rulesets.toy (rules) imports obverse.engine (engine)"]


def test_imports_read_type_checking_and_functions(tmp_path: Path) -> None:
    src = (
        "from typing import TYPE_CHECKING\n"
        "import ray\n"
        "from obverse import vocab\n"
        "if TYPE_CHECKING:\n"
        "    from obverse.engine import apply\n"
        "else:\n"
        "    from obverse.errors import InputError\n"
        "def f() -> None:\n"
        "    from obverse.rulesets.base import Ruleset\n"
    )
    path = tmp_path / "m.py"
    path.write_text(src, encoding="utf-8")
    known = {"obverse.vocab", "obverse.rulesets.base"}
    got = [(i.target, i.in_function) for i in imports("obverse.m", path, known)]
    assert got == [
        ("typing", False),
        ("ray", False),
        ("obverse.vocab", False),
        ("obverse.errors", False),
        ("obverse.rulesets.base", True),
    ]


def chain_depth(cls: type) -> int:
    """The longest path of inheritance steps from ``cls`` to a root (``object`` not counted):
    ``Magic2008 -> Magic -> Ruleset -> Hooks`` is 3."""
    bases = [b for b in cls.__bases__ if b is not object]
    return 1 + max(map(chain_depth, bases)) if bases else 0


@pytest.mark.parametrize("cls", registry.rulesets(), ids=lambda cls: cls.__name__)
def test_class_chains_are_at_most_three_deep(cls: type) -> None:
    """A rule is a few frames away: a ruleset composes flat mixins and handlers (MTG's
    layouts) rather than a diamond of subclasses (issue 27)."""
    assert chain_depth(cls) <= 3, [c.__name__ for c in cls.__mro__]


def test_chain_depth_counts_the_longest_path() -> None:
    class A: ...

    class B(A): ...

    class C(B, A): ...

    assert (chain_depth(A), chain_depth(B), chain_depth(C)) == (0, 1, 2)


# --- the fast layer is one seam (issue 27) --------------------------------------------------

#: The two fast-path places: the memo decorators and the offers' incremental lists.
FAST_PATHS = frozenset({"obverse.memo", "obverse.fastoffers"})
#: Module-level tables that are no cache: the plug-in registry's run-time registrations.
NOT_CACHES = frozenset({("obverse.registry", "_EXTRA")})
#: Calls that make a new, empty mutable table.
_TABLES = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "LastOf"})
#: Methods that change a table in place.
_MUTATORS = frozenset(
    {
        "add",
        "append",
        "clear",
        "discard",
        "extend",
        "insert",
        "pop",
        "popitem",
        "put",
        "remove",
        "setdefault",
        "update",
    }
)


def _is_table(value: ast.expr | None) -> bool:
    """Whether ``value`` makes an empty mutable table (``{}``, ``[]``, ``dict()`` ...)."""
    if isinstance(value, ast.Dict | ast.List | ast.Set):
        return True
    if isinstance(value, ast.Call):
        f = value.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in _TABLES
    return False


def module_caches(tree: ast.Module) -> list[str]:
    """The module-level names bound to a mutable table that a function of the module changes
    (an item set or deleted, a changing method called, or the name rebound as ``global``):
    a cache kept beside the code rather than through :mod:`obverse.memo`."""
    tables: dict[str, int] = {}
    for node in tree.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        if targets and _is_table(value):
            tables.update({t.id: node.lineno for t in targets if isinstance(t, ast.Name)})
    changed: set[str] = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        for n in ast.walk(fn):
            if isinstance(n, ast.Global):
                changed.update(n.names)
            elif isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store | ast.Del):
                if isinstance(n.value, ast.Name):
                    changed.add(n.value.id)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                target = n.func.value
                if n.func.attr in _MUTATORS and isinstance(target, ast.Name):
                    changed.add(target.id)
    return [f"{name} (line {line})" for name, line in tables.items() if name in changed]


def speed_tricks(tree: ast.Module) -> list[str]:
    """Calls of ``exec``/``eval`` or ``sys.getrefcount``: code generated at run time, or who
    else holds an object asked of the interpreter."""
    found = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        f = n.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name in ("exec", "eval", "getrefcount"):
            found.append(f"{name} (line {n.lineno})")
    return found


def test_caches_and_speed_tricks_are_only_in_the_fast_layer() -> None:
    """Outside :mod:`obverse.memo` (and :mod:`obverse.fastoffers`), no module keeps a
    module-level cache of its own or calls ``exec``/``sys.getrefcount``: the rule code reads
    plainly, a decorator of the memo module its only speed line."""
    bad = []
    for name, path in sorted(modules().items()):
        if name in FAST_PATHS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tricks = speed_tricks(tree)
        caches = [c for c in module_caches(tree) if (name, c.split(" ")[0]) not in NOT_CACHES]
        bad += [f"{name}: {x}" for x in (*tricks, *caches)]
    assert not bad, "make these memo decorators (obverse.memo):\n" + "\n".join(bad)


def test_the_seam_checkers_find_what_they_look_for() -> None:
    tree = ast.parse(
        "import sys\n"
        "_A = {}\n"
        "_B: dict[int, int] = dict()\n"
        "_C = LastOf()\n"
        "_D = {}\n"
        "_E = []\n"
        "def f(x):\n"
        "    _A[x] = 1\n"
        "    _B.setdefault(x, 2)\n"
        "    _C.put(1, x)\n"
        "    exec('y = 1')\n"
        "    return _D.get(x), sys.getrefcount(x)\n"
        "def g():\n"
        "    global _E\n"
        "    _E = [1]\n"
    )
    assert module_caches(tree) == ["_A (line 2)", "_B (line 3)", "_C (line 4)", "_E (line 6)"]
    assert speed_tricks(tree) == ["exec (line 11)", "getrefcount (line 12)"]
