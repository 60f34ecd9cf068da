"""Shared test fixtures."""

from __future__ import annotations

from collections.abc import Callable

import pytest


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
