"""Shared fixtures: every test runs with a clean toolkit configuration."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from helpers import KEPT_VARIABLES

from toolkit.config import ENV_VARS, load_settings

if TYPE_CHECKING:
    from toolkit.local.server.runner import EmbeddedServer


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--update-golden`` rewrites tests/golden/*.json from the current tool schemas."""
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/<tool>.json from `toolkit schema tools --json`",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """Whether this run rewrites the golden files instead of comparing with them."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def local_server() -> Iterator[EmbeddedServer]:
    """The real embedded model behind its OpenAI-compatible server on loopback, one per session.

    Settings come from nothing but ``TOOLKIT_CACHE_DIR`` and ``TOOLKIT_THREADS`` (no ``.env``,
    no provider), so this is the shipped model with default settings. Use
    ``local_server.base_url`` / ``.api_key``.
    """
    from toolkit.local.server.runner import EmbeddedServer

    kept = {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
    server = EmbeddedServer(load_settings(env_file="", environ=kept)).start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _isolated_config(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """No provider keys, base URLs or .env file leak into a test from the machine."""
    for name in ENV_VARS:
        if name not in KEPT_VARIABLES:
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TOOLKIT_ENV_FILE", str(tmp_path / "no.env"))
