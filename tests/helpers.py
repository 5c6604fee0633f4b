"""Helpers shared by the test files (plain functions; fixtures live in conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

#: The repository root (the CLI runs from here unless a test says otherwise).
ROOT = Path(__file__).resolve().parent.parent


def run_toolkit(
    *args: str,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    timeout: float = 600,
) -> subprocess.CompletedProcess:
    """Run ``python -m toolkit ARGS`` as a subprocess, as a user would.

    Args:
        *args: The command line after ``toolkit``.
        env: Variables added to the environment (``COLUMNS=200`` keeps tables on one line).
        cwd: The working directory; default the repository root.
        timeout: Seconds before the run is abandoned (the embedded model on two shared cores
            can be slow to answer).

    Returns:
        The finished process, stdout and stderr as text.
    """
    environ = {**os.environ, "COLUMNS": "200", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "toolkit", *args],
        capture_output=True,
        text=True,
        env=environ,
        cwd=cwd or ROOT,
        timeout=timeout,
    )
