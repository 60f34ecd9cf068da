"""``obverse fuzz`` (process pool and a local two-CPU Ray instance) and ``obverse bench``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from obverse import fuzz
from obverse.cli import main
from obverse.console import Progress
from obverse.runner import run_scenario


def test_fuzz_process_pool(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--ruleset", "mtg", "--histories", "40", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "mtg: 40 histories (+40 twins)" in out and "no counterexample" in out


def test_fuzz_on_local_ray_with_two_cpus(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed")
    assert (
        main(["fuzz", "--ruleset", "ga", "--histories", "20", "--workers", "2", "--ray", "local"])
        == 0
    )
    out = capsys.readouterr().out
    assert "ga: 20 histories" in out
    line = next(x for x in out.splitlines() if x.startswith("ray:"))
    assert "on 2 CPUs" in line
    per_cpu, single, eff = (
        float(line.split(" = ")[1].split()[0]),
        float(line.split("single process ")[1].split()[0]),
        float(line.rsplit(" ", 1)[1]),
    )
    # The rates are printed to 0.05 and the efficiency to 0.005: it lies between what the
    # rounded rates allow (a slow, loaded machine prints small rates, so no fixed tolerance).
    low = (per_cpu - 0.05) / (single + 0.05) - 0.005
    high = (per_cpu + 0.05) / max(single - 0.05, 1e-9) + 0.005
    assert low <= eff <= high


def test_fuzz_efficiency_is_per_cpu_rate_over_single_rate() -> None:
    rep = fuzz.FuzzReport("mtg", 40, 100, 5.0, cpus=4, ray_seconds=2.0, single_rate=8.0)
    assert rep.ray_rate == 20.0
    assert rep.efficiency == pytest.approx((20.0 / 4) / 8.0)
    assert fuzz.FuzzReport("mtg", 40, 100, 5.0).efficiency is None
    assert fuzz.FuzzReport("mtg", 40, 100, 5.0).scale_line() == ""


def test_fuzz_writes_replayable_counterexamples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = {"n": 0}
    real = fuzz.check_invariants

    def broken(state: object, cards: int) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise fuzz.InvariantError("planted failure")
        real(state, cards)  # type: ignore[arg-type]

    monkeypatch.setattr(fuzz, "check_invariants", broken)
    out_dir = tmp_path / "cx"
    code = main(["fuzz", "--ruleset", "mtg", "--histories", "2", "--out", str(out_dir)])
    assert code == 1
    assert "COUNTEREXAMPLE play seed 0: InvariantError: planted failure" in capsys.readouterr().out
    files = sorted(out_dir.glob("*.yaml"))
    assert files
    assert run_scenario(files[0]).status == "PASS"


def test_fuzz_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--ruleset", "chess", "--histories", "1"]) == 2
    assert "unknown ruleset" in capsys.readouterr().err
    assert main(["fuzz", "--ruleset", "mtg", "--histories", "0"]) == 2


def test_bench_json_has_every_figure_with_its_floor(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    phases: list[str] = []
    real = Progress.advance

    def advance(bar: Progress, by: int = 1, note: str = "") -> None:
        phases.append(note)
        real(bar, by, note)

    monkeypatch.setattr(Progress, "advance", advance)
    assert main(["bench", "--quick", "--json", "--sizes", "200,400", "--node-sizes", "8,16"]) == 0
    assert len(phases) == 6 and phases[0].startswith("characteristics")  # a bar per phase
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    names = " | ".join(r["figure"] for r in rows)
    for part in (
        "characteristics (cached)",
        "characteristics (uncached",
        "transform",
        "move",
        "view",
        "first view",
        "branches",
        "50-step scenario",
        "random play",
        "offers after one change",
        "search node",
        "apply + undo",
    ):
        assert part in names
    for r in rows:
        assert {"value", "unit", "floor", "ratio", "goal", "met", "size"} <= set(r)
        assert r["value"] > 0 and r["floor"] > 0
        assert isinstance(r["met"], bool) == bool(r["goal"])
    node = [r for r in rows if r["floor_name"].startswith("python-chess")]
    sized = [r for r in rows if r["size"] is not None and r not in node]
    assert sorted({r["size"] for r in sized}) == [200, 400]
    for r in sized:
        same = [x for x in sized if x["figure"] == r["figure"]]
        base = next(x for x in same if x["size"] == 200)
        assert r["ratio_to_smallest"] == pytest.approx(r["value"] / base["value"], rel=0.02)
    grown = [r for r in sized if r["size"] == 400 and r["goal"].startswith("<= 2x")]
    assert {r["figure"] for r in grown} >= {
        "move to graveyard",
        "view (one object changed since the last view)",
    }
    for r in grown:
        assert r["met"] == (r["ratio_to_smallest"] <= 2)
    _node_figures(rows)


def _node_figures(rows: list[dict[str, Any]]) -> None:
    """The search-node figures: the offers at both sizes of MTG and FaB (the larger's goal a
    growth of at most 20x), a node in every game within 5x its floor, apply + undo in every
    game (and FaB's put-under) within 2x; each goal's ``met`` as its numbers say."""
    offers = [r for r in rows if "offers after one change" in r["figure"]]
    assert sorted((r["figure"][:3], r["size"]) for r in offers) == [
        ("fab", 8),
        ("fab", 16),
        ("mtg", 8),
        ("mtg", 16),
    ]
    for r in offers:
        if r["size"] == 16:
            assert r["goal"] == "<= 20x the cost at 8"
            assert r["met"] == (r["ratio_to_smallest"] <= 20)
    nodes = [r for r in rows if "search node" in r["figure"]]
    assert sorted(r["figure"][:3] for r in nodes) == ["fab", "ga:", "mtg", "scp"]
    steps = [r for r in rows if "apply + undo" in r["figure"]]
    assert len(steps) == 5 and any("put-under" in r["figure"] for r in steps)
    for r, limit in [*((r, 5) for r in nodes), *((r, 2) for r in steps)]:
        assert r["met"] == (r["value"] / r["floor"] <= limit)
    assert {r["size"] for r in steps} == {16}


def test_bench_without_python_chess_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from obverse import bench, bench_node

    monkeypatch.setattr(bench, "run", lambda *a, **kw: [])
    monkeypatch.setattr(bench_node, "chess_available", lambda: False)
    assert main(["bench", "--quick", "--json"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == ""
    assert "python-chess isn't installed" in err and "obverse[bench]" in err


def test_bench_refuses_bad_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--sizes", "200,lots"]) == 2
    assert "--sizes" in capsys.readouterr().err
    assert main(["bench", "--quick", "--sizes", "3"]) == 2
    assert main(["bench", "--quick", "--node-sizes", "1000,50"]) == 2
    assert "--node-sizes" in capsys.readouterr().err
