"""``obverse import GAME --download`` against a local HTTP server (127.0.0.1, a free port, in a
thread) serving the test fixtures as each source serves its data: Scryfall's bulk-data index
and file, the FaB JSON folder, GA's paged card search. Also: the checks (size, shape, count),
the offline one-line error naming where to get the data, and the card database then used
first by ``obverse card`` and the sandbox."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from obverse.carddb import CardDB
from obverse.cli import main

DATA = Path(__file__).parent / "data"
SCRYFALL = DATA / "mtg" / "scryfall-mtg_ssm-cards.json"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # starlette's TestClient


class Files:
    """What the local server serves: path (with its query) -> body; a 404 otherwise."""

    def __init__(self) -> None:
        self.routes: dict[str, bytes] = {}
        self.headers: dict[str, dict[str, str]] = {}
        self.asked: list[str] = []


@pytest.fixture
def site() -> Iterator[tuple[str, Files]]:
    files = Files()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            files.asked.append(self.path)
            body = files.routes.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for key, value in files.headers.get(self.path, {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", files
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def _bulk_index(base: str, size: int) -> bytes:
    entry = {
        "object": "bulk_data",
        "type": "oracle_cards",
        "download_uri": f"{base}/file/oracle-cards.json",
        "size": size,
        "content_type": "application/json",
    }
    rulings = {**entry, "type": "rulings", "download_uri": f"{base}/file/rulings.json"}
    return json.dumps({"object": "list", "has_more": False, "data": [rulings, entry]}).encode()


def test_mtg_download_imports_scryfalls_bulk_file(
    site: tuple[str, Files], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, files = site
    body = SCRYFALL.read_bytes()
    files.routes["/bulk-data"] = _bulk_index(base, len(body))
    files.routes["/file/oracle-cards.json"] = body
    db = tmp_path / "cards.sqlite3"
    code = main(["import", "mtg", "--download", "--url", f"{base}/bulk-data", "--db", str(db)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert files.asked == ["/bulk-data", "/file/oracle-cards.json"]  # never the rulings file
    assert "downloaded scryfall-oracle_cards.json" in out.err
    assert "mtg: 88 records imported" in out.out
    with CardDB(db) as cards:
        assert cards.count("mtg") > 0
    # the sandbox finds a card only the database has (the bundled cards don't have it)
    from obverse.carddata import bundled

    with CardDB(db) as cards:
        only_db = next(n for n in cards.names("mtg") if bundled("mtg").get(n) is None)
    _sandbox_adds(db, only_db)


def _sandbox_adds(db: Path, name: str) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from obverse.web.app import create_app

    app = create_app(db.parent / "tables.sqlite3", str(db))
    with TestClient(app) as client:
        seats = client.post("/api/tables", json={"ruleset": "mtg"}).json()["seats"]
        judge = seats["judge"]
        body = {"card": name, "owner": "alice", "zone": "battlefield"}
        r = client.post(f"/api/t/{judge}/setup", json=body)
        assert r.status_code == 200, r.text
        view = client.get(f"/api/t/{judge}").json()["view"]
        names = [o.get("card") for z in view["zones"] for o in z["objects"]]
        assert name in names
        # an unknown card says how to import more
        body = {"card": "No Such Card Anywhere", "owner": "alice", "zone": "battlefield"}
        r = client.post(f"/api/t/{judge}/setup", json=body)
        assert r.status_code == 400
        assert "obverse import mtg --download" in r.json()["error"]


def test_a_gzip_encoded_bulk_file_is_written_decoded(
    site: tuple[str, Files], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import gzip

    base, files = site
    body = SCRYFALL.read_bytes()
    files.routes["/bulk-data"] = _bulk_index(base, len(body))
    files.routes["/file/oracle-cards.json"] = gzip.compress(body)
    files.headers["/file/oracle-cards.json"] = {"Content-Encoding": "gzip"}
    db = tmp_path / "cards.sqlite3"
    code = main(["import", "mtg", "--download", "--url", f"{base}/bulk-data", "--db", str(db)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "mtg: 88 records imported" in out.out


def test_a_size_other_than_the_index_says_is_refused(
    site: tuple[str, Files], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, files = site
    body = SCRYFALL.read_bytes()
    files.routes["/bulk-data"] = _bulk_index(base, len(body) + 10)
    files.routes["/file/oracle-cards.json"] = body
    db = tmp_path / "cards.sqlite3"
    code = main(["import", "mtg", "--download", "--url", f"{base}/bulk-data", "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"but the index says {len(body) + 10}" in err
    assert len(err.strip().splitlines()) == 1
    assert not db.exists()


def test_a_file_that_is_not_card_json_is_refused(
    site: tuple[str, Files], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, files = site
    files.routes["/cards.json"] = b'{"object": "error", "details": "not here"}'
    db = tmp_path / "cards.sqlite3"
    code = main(["import", "mtg", "--download", "--url", f"{base}/cards.json", "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2 and "not Scryfall card JSON" in err and not db.exists()


def test_fab_download_imports_the_card_list_and_face_pairs(
    site: tuple[str, Files],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OBVERSE_DB", str(tmp_path / "no-default.sqlite3"))  # no database
    base, files = site
    folder = DATA / "fab" / "json" / "english"
    files.routes["/fab/card.json"] = (folder / "card.subset.json").read_bytes()
    assoc = (folder / "card-face-association.json").read_bytes()
    files.routes["/fab/card-face-association.json"] = assoc
    db = tmp_path / "cards.sqlite3"
    code = main(["import", "fab", "--download", "--url", f"{base}/fab/", "--db", str(db)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "fab: 95 records imported as 95 cards" in out.out
    # `obverse card` reads the database first: its Inner Chi cards, not the bundled one
    code = main(["card", "Inner Chi", "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2 and "Inner Chi (blue)" in err and "Stir the Pot" not in err
    assert main(["card", "Inner Chi (blue)", "--db", str(db), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["name"] == "Inner Chi" and shown["layout"] == "normal"
    assert main(["card", "Inner Chi"]) == 0  # without the database: the bundled card
    assert "Stir the Pot" in capsys.readouterr().out


def _ga_page(number: int, total: int, last: int) -> bytes:
    source = DATA / "ga" / "api-cards-search" / f"MockResponsePage{number}.json"
    page = json.loads(source.read_text("utf-8"))
    page.update(page=number, total_cards=total, total_pages=last, has_more=number < last)
    return json.dumps(page).encode()


def test_ga_download_reads_every_page(
    site: tuple[str, Files], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, files = site
    files.routes["/cards/search?page=1"] = _ga_page(1, 60, 2)
    files.routes["/cards/search?page=2"] = _ga_page(2, 60, 2)
    db = tmp_path / "cards.sqlite3"
    code = main(["import", "ga", "--download", "--url", f"{base}/cards/search", "--db", str(db)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert files.asked == ["/cards/search?page=1", "/cards/search?page=2"]
    with CardDB(db) as cards:
        assert cards.get("ga", "Fabled Azurite Fatestone") is not None
    # an index that promises more cards than its pages hold is refused
    files.routes["/cards/search?page=1"] = _ga_page(1, 1660, 2)
    db2 = tmp_path / "cards2.sqlite3"
    code = main(["import", "ga", "--download", "--url", f"{base}/cards/search", "--db", str(db2)])
    err = capsys.readouterr().err
    assert code == 2 and "but the index says 1660" in err and not db2.exists()


def test_offline_the_error_says_where_to_get_the_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path / "cards.sqlite3"
    url = f"http://127.0.0.1:{port}/bulk-data"
    code = main(["import", "mtg", "--download", "--url", url, "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert url in err and "https://scryfall.com/docs/api/bulk-data" in err
    assert "Traceback" not in err and not db.exists()
    # no path and no --download: where to get the file, in one line
    assert main(["import", "fab", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "github.com/the-fab-cube/flesh-and-blood-cards" in err and "--download" in err
    # the README's file, missing: the same pointer
    code = main(["import", "mtg", str(tmp_path / "scryfall-bulk.json"), "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2 and "no such file" in err and "scryfall.com/docs/api/bulk-data" in err
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_the_progress_line_draws_a_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from obverse.cardcli import _Files

    out = io.StringIO()
    monkeypatch.setattr(out, "isatty", lambda: True, raising=False)
    monkeypatch.delenv("OBVERSE_NO_PROGRESS", raising=False)
    monkeypatch.setattr("sys.stderr", out)
    bar = _Files("downloading")
    bar("oracle-cards.json", 50 * 2**20, 100 * 2**20)
    drawn = out.getvalue()
    bar.clear()
    assert "downloading oracle-cards.json: [##########----------] 50% 50.0 of 100.0 MiB" in drawn
    assert out.getvalue().endswith("\r")  # cleared for what is printed next
