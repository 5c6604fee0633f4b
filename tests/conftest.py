"""Shared fixtures: every test runs with a clean toolkit configuration."""

from __future__ import annotations

import pytest

from toolkit.config import ENV_VARS

#: Kept from the outer environment: where the shipped model is assembled (a cache, not config).
_KEPT = {"TOOLKIT_CACHE_DIR"}


@pytest.fixture(autouse=True)
def _isolated_config(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """No provider keys, base URLs or .env file leak into a test from the machine."""
    for name in ENV_VARS:
        if name not in _KEPT:
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TOOLKIT_ENV_FILE", str(tmp_path / "no.env"))
