"""Shared test fixtures."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from obverse.rulesets import Ruleset


class SameRandomness:
    """Twin web tables share the server's coin flips (game ids, handle keys, the judge's
    token): non-interference compares worlds that differ only in the hidden card."""

    def __init__(self) -> None:
        self.n = 0

    def token_hex(self, nbytes: int) -> str:
        self.n += 1
        return f"{self.n:0{2 * nbytes}x}"[-2 * nbytes :]

    def token_urlsafe(self, nbytes: int) -> str:
        self.n += 1
        return f"t{self.n:040d}"


@pytest.fixture
def same_randomness(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Call before building each twin: the web store's randomness restarts from one fixed
    sequence."""
    from obverse.web import store as store_module

    def restart() -> None:
        monkeypatch.setattr(store_module, "secrets", SameRandomness())

    return restart


@pytest.fixture
def register(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[type[Ruleset]], Ruleset]]:
    """Register ruleset classes in-process (``register(Toy)`` gives the ruleset); they are
    unregistered afterwards (the registry is global)."""
    from obverse import registry

    monkeypatch.setattr(registry, "_EXTRA", {})

    def add(cls: type[Ruleset]) -> Ruleset:
        registry.register(cls)
        return registry.get_ruleset(cls.aliases[0])

    yield add
    registry._EXTRA.clear()
    registry.get_ruleset.cache_clear()
    registry._listed.cache_clear()


@pytest.fixture(autouse=True)
def _testclient_host(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starlette's test client names its host ``testserver``: tests' apps answer it as a
    loopback name (a real server never does; ``tests/test_web_hosts.py`` checks the
    default without it)."""
    try:
        from obverse.web import transport
    except ImportError:  # the web extra is missing: no app is built
        return
    monkeypatch.setattr(transport, "LOOPBACK_HOSTS", (*transport.LOOPBACK_HOSTS, "testserver"))
