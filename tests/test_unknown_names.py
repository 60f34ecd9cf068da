"""An unknown card name gets the same suggestions in a scenario file and in the web sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from obverse.cli import main

SCENARIO = """\
ruleset: mtg
setup:
  - {label: d, card: delver, owner: alice, zone: hand}
steps:
  - expect: {object: d, zone: hand}
"""


def test_run_suggests_a_close_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "typo.yaml"
    path.write_text(SCENARIO)
    assert main(["run", str(path)]) == 2
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert "setup[1]" in out and "unknown card 'delver'" in out
    assert "did you mean: Delver of Secrets" in out
    assert "Traceback" not in out


def test_web_add_card_suggests_a_close_name() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from obverse.web.app import create_app
    from obverse.web.store import Store

    with TestClient(create_app(Store(":memory:"))) as c:
        r = c.post("/api/tables", json={"ruleset": "mtg", "title": "names"})
        judge = r.json()["seats"]["judge"]
        r = c.post(
            f"/api/t/{judge}/setup", json={"card": "delver", "owner": "alice", "zone": "hand"}
        )
        assert r.status_code == 400
        message = r.json()["error"]
        assert message.startswith("card: unknown card 'delver'")
        assert "did you mean: Delver of Secrets" in message and "\n" not in message
        # A name nothing resembles gets no suggestion list.
        r = c.post(
            f"/api/t/{judge}/setup", json={"card": "Qqqqzzzz", "owner": "alice", "zone": "hand"}
        )
        assert r.status_code == 400 and "did you mean" not in r.json()["error"]
