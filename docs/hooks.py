"""mkdocs hooks: generated pages (rules by game, API reference) and Sphinx roles in docstrings.

- ``on_config`` expands the nav entries ``rules/index.md`` and ``api/index.md`` into sections
  listing the generated pages, and adds ``architecture.md`` when that page exists;
- ``on_files`` adds the generated pages (never written into ``docs/``, so never stale);
- ``on_page_content`` turns the Sphinx roles the docstrings use (``:class:`~a.B```) into
  cross-references, which stay plain code when the target is not documented.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

DOCS = Path(__file__).resolve().parent

#: Modules with an API page, in nav order; those that do not exist (yet) are left out.
API_MODULES = (
    "obverse",
    "obverse.game",
    "obverse.engine",
    "obverse.state",
    "obverse.rulings",
    "obverse.rulesets",
    "obverse.characteristics",
    "obverse.views",
    "obverse.vocab",
    "obverse.cards",
    "obverse.errors",
)

ROLE_RE = re.compile(r":(?:class|meth|func|mod|attr|data|exc|obj):<code>(~?)([\w.]+)</code>")


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_rules_pages", DOCS / "gen_rules_pages.py")
    assert spec is not None and spec.loader is not None  # the file sits beside this one
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def api_modules() -> list[str]:
    """The modules of :data:`API_MODULES` that exist in the installed package."""
    found = []
    for name in API_MODULES:
        try:
            if importlib.util.find_spec(name) is not None:
                found.append(name)
        except ImportError:  # a parent package is missing
            continue
    return found


def generated_pages() -> dict[str, str]:
    """Every generated page's Markdown, keyed by its path under ``docs/``."""
    gen = _load_generator()
    try:
        pages: dict[str, str] = gen.render_all()
    except gen.GenError as exc:
        raise PluginError(f"rules pages: {exc}") from None
    modules = api_modules()
    pages["api/index.md"] = _api_index(modules)
    for name in modules:
        pages[f"api/{name}.md"] = f"# `{name}`\n\n::: {name}\n"
    if "obverse" in modules:
        pages["api/obverse.md"] = _package_page()
    return pages


def _package_page() -> str:
    """The package's docstring, then its exports, each linked to the page that documents it."""
    spec = importlib.util.find_spec("obverse")
    assert spec is not None and spec.origin is not None  # api_modules() found it
    source: dict[str, str] = {}
    exports: list[str] = []
    for node in ast.parse(Path(spec.origin).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            source.update({a.asname or a.name: node.module for a in node.names})
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            exports = list(ast.literal_eval(node.value))
    lines = [
        "# `obverse`",
        "",
        "::: obverse",
        "    options:",
        "      members: false",
        "",
        "## Exports",
        "",
        "| Name | From |",
        "| --- | --- |",
    ]
    for name in exports:
        module = source.get(name, "obverse")
        ref = f'<autoref identifier="{module}.{name}" optional><code>{name}</code></autoref>'
        lines.append(f"| {ref} | `{module}` |")
    return "\n".join(lines) + "\n"


def _summary(name: str) -> str:
    """The first line of the module's docstring, read without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return ""
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    return (ast.get_docstring(tree) or "").strip().split("\n")[0]


def _api_index(modules: list[str]) -> str:
    lines = [
        "# API reference",
        "",
        "Generated from the docstrings of the installed package. Start with `Game` (a stateful"
        " wrapper) or, for the functional kernel, `GameState`, `characteristics` and `view`.",
        "",
        "| Module | Summary |",
        "| --- | --- |",
    ]
    for name in modules:
        summary = _summary(name).replace("|", "&#124;")
        lines.append(f"| [`{name}`]({name}.md) | {summary} |")
    return "\n".join(lines) + "\n"


_PAGES: dict[str, str] = {}


def _section(title: str, index: str, prefix: str) -> dict[str, list[Any]]:
    children: list[Any] = [index]
    for path in (p for p in _PAGES if p.startswith(prefix) and p != index):  # generation order
        heading = _PAGES[path].splitlines()[0].lstrip("# ").strip("`")
        children.append({heading.split(" — ")[0]: path})
    return {title: children}


def _rules_section(title: str, index: str) -> dict[str, list[Any]]:
    """Rules by game: each game's page, then its sections' pages (generation order)."""
    children: list[Any] = [index]
    games = [p for p in _PAGES if p.startswith("rules/") and p.endswith("/index.md")]
    for game_index in (g for g in games if g != index):
        folder = game_index.rsplit("/", 1)[0] + "/"
        heading = _PAGES[game_index].splitlines()[0].lstrip("# ").split(" — ")[0]
        pages: list[Any] = [game_index]
        for path in (p for p in _PAGES if p.startswith(folder) and p != game_index):
            pages.append({_PAGES[path].splitlines()[0].lstrip("# "): path})
        children.append({heading: pages})
    return {title: children}


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Generate the pages and expand their nav entries."""
    _PAGES.clear()
    _PAGES.update(generated_pages())
    _QUALIFIED.clear()
    _QUALIFIED.update(_qualified_names(api_modules()))
    nav: list[Any] = []
    for entry in config.nav or []:
        (title, target), *_ = entry.items() if isinstance(entry, dict) else [(None, entry)]
        if target == "rules/index.md":
            nav.append(_rules_section(str(title), target))
        elif target == "api/index.md":
            nav.append(_section(str(title), target, "api/"))
        else:
            nav.append(entry)
    if (DOCS / "architecture.md").is_file():
        nav.insert(-1, {"Architecture": "architecture.md"})
    config.nav = nav
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages to the build."""
    for path, text in _PAGES.items():
        files.append(File.generated(config, path, content=text))
    return files


#: Unqualified names a docstring may use (``:class:`CardDef```) -> their documented identifier.
_QUALIFIED: dict[str, str] = {}


def _qualified_names(modules: list[str]) -> dict[str, str]:
    """Public classes and functions of ``modules``, by bare name; names defined twice are left
    out (a role that names one stays plain code rather than linking to the wrong one)."""
    found: dict[str, list[str]] = {}
    for name in modules:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef) and not node.name.startswith("_"):
                found.setdefault(node.name, []).append(f"{name}.{node.name}")
    return {short: full[0] for short, full in found.items() if len(full) == 1}


def _role(match: re.Match[str]) -> str:
    short, target = match.groups()
    title = target.rsplit(".", 1)[-1] if short else target
    head, _, rest = target.partition(".")
    if head in _QUALIFIED:  # CardDef, GameObject.copies: qualify by the defining module
        target = _QUALIFIED[head] + (f".{rest}" if rest else "")
    return f'<autoref identifier="{target}" optional><code>{title}</code></autoref>'


def on_page_content(html: str, page: Page, **_: Any) -> str:
    """Sphinx roles to optional cross-references (autorefs resolves them after all pages)."""
    return ROLE_RE.sub(_role, html)
