"""Tables to scenario files and back (the contract format of ``docs/scenario-format.md``).

An exported table is its inline cards, setup and action steps, followed by ``expect`` steps
that pin the board as it is now (every label's zone, face and status, and what each player
can identify), so ``obverse run`` on the file both reproduces the board and proves it did.
"""

from __future__ import annotations

from typing import Any

import yaml

from obverse.carddata import bundled
from obverse.errors import InputError
from obverse.loader import load_text
from obverse.scenario import is_query
from obverse.views import is_visible
from obverse.web.table import CardLookup, Table, card_builtins, scenario_data, validate

#: The object keys an export pins for every label.
PINNED = (
    "zone",
    "owner",
    "controller",
    "name",
    "face",
    "face_down",
    "transformed",
    "flipped",
    "is_copy",
    "is_token",
)


def board_expectations(table: Table) -> list[dict[str, Any]]:
    """``expect`` steps that hold for the table's current board."""
    runner = table.runner
    out: list[dict[str, Any]] = []
    for label, (kind, _) in runner.labels.items():
        if kind not in ("card", "obj"):
            continue
        obj = runner.obj(label)
        if obj is None:
            out.append({"expect": {"object": label, "exists": False}})
            continue
        exp: dict[str, Any] = {"object": label}
        for key in PINNED:
            exp[key] = runner.value(obj, key)
        counters = runner.value(obj, "counters")
        if counters:
            exp["counters"] = counters
        out.append({"expect": exp})
        for player in table.state.players:
            seen = is_visible(table.state, player, obj, table.rs)
            out.append({"expect": {"viewer": player, "object": label, "visible": seen}})
    return out


def export_scenario(table: Table) -> dict[str, Any]:
    """The table as scenario data: setup, steps, then the board's expectations."""
    data = scenario_data(table.rec)
    if not data.get("title"):
        data["title"] = f"obverse sandbox table {table.rec.id}"
    steps = list(data["steps"])
    if steps:
        last = table.history[-1] if table.history else None
        if last is not None:
            steps.append({"expect": {"last_result": last.result}})
    steps.extend(board_expectations(table))
    if not steps:  # an empty table: the contract wants at least one step
        steps.append({"end_turn": None})
    data["steps"] = steps
    return data


class _Dumper(yaml.SafeDumper):
    """Block style at the top, each setup entry and step on one line."""


def _represent_dict(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items())


_Dumper.add_representer(dict, _represent_dict)


def dump_yaml(data: dict[str, Any]) -> str:
    """Scenario data as a readable YAML file (key order kept)."""
    head = {k: v for k, v in data.items() if k not in ("cards", "setup", "steps")}
    parts = [
        yaml.dump(
            head,
            Dumper=_Dumper,
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=False,
            width=100,
        )
    ]
    for key in ("cards", "setup", "steps"):
        if key not in data:
            continue
        lines = [f"{key}:"]
        for item in data[key]:
            flow = yaml.dump(
                item,
                Dumper=_Dumper,
                sort_keys=False,
                allow_unicode=True,
                default_flow_style=True,
                width=10_000,
            ).strip()
            lines.append(f"  - {flow}")
        if not data[key]:
            lines[0] += " []"
        parts.append("\n".join(lines) + "\n")
    return "# Exported by the obverse web sandbox; run it with: obverse run FILE\n" + "".join(parts)


def parse_scenario(
    text: str, extra: CardLookup | None = None, path: str = "upload"
) -> dict[str, Any]:
    """A scenario file's text as table data (see :func:`scenario_head`). Raises
    :class:`InputError`."""
    return scenario_head(load_text(text, path), extra, path)


def scenario_head(
    data: Any, extra: CardLookup | None = None, path: str = "upload"
) -> dict[str, Any]:
    """Parsed scenario data as table data: its cards, setup and action steps (expectations,
    ``remember`` and queries are dropped: they change nothing). Raises :class:`InputError`."""
    if not isinstance(data, dict):
        raise InputError(
            "top level", "", "expected a mapping (ruleset, players, setup, steps)", path
        )
    scn = validate(data, extra, path)
    steps = [
        {name: arg}
        for name, arg in scn.steps
        if name not in ("expect", "remember") and not is_query(name, scn.ruleset)
    ]
    cards = data.get("cards") or []
    players = list(scn.players)
    out = {
        "ruleset": data["ruleset"],
        "title": scn.title if "title" in data else "",
        "players": players,
        "seed": scn.seed,
        "pregame": scn.pregame,
        "cards": cards,
        "setup": list(scn.setup),
        "steps": steps,
    }
    # Cards the file names that only the card database knows become inline cards.
    inline = {c.get("name") for c in cards if isinstance(c, dict)}
    for entry in scn.setup:
        card = scn.resolver.get(entry["card"])
        if (
            card is not None
            and card.name not in inline
            and extra is not None
            and scn.resolver.inline.get(entry["card"]) is None
            and bundled(scn.ruleset.game).get(entry["card"]) is None
        ):
            out["cards"].append(card_builtins(card))
            inline.add(card.name)
    return out


__all__ = [
    "InputError",
    "board_expectations",
    "dump_yaml",
    "export_scenario",
    "parse_scenario",
    "scenario_head",
]
