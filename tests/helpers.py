"""Helpers shared by the test files (plain functions; fixtures live in conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: The repository root (the CLI runs from here unless a test says otherwise).
ROOT = Path(__file__).resolve().parent.parent

#: Kept from the outer environment, even in a clean one: where the shipped model is assembled
#: (a cache, not config) and how many cores the embedded model may use (a property of the
#: machine the suite runs on).
KEPT_VARIABLES = ("TOOLKIT_CACHE_DIR", "TOOLKIT_THREADS")


def clean_env(**variables: str) -> dict[str, str]:
    """The environment of a fresh shell in which nothing of the toolkit is configured.

    Args:
        **variables: Variables to set on top, e.g. ``OPENAI_BASE_URL``.

    Returns:
        ``PATH`` and ``HOME`` of this process, :data:`KEPT_VARIABLES` where set,
        ``TOOLKIT_ENV_FILE`` naming a file that does not exist (so no ``.env`` is read), and
        ``variables``.
    """
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", str(ROOT)),
        "TOOLKIT_ENV_FILE": str(ROOT / "tests" / "no-such.env"),
    }
    env |= {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
    return env | variables


def run_toolkit(
    *args: str,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    timeout: float = 600,
    inherit: bool = True,
) -> subprocess.CompletedProcess:
    """Run ``python -m toolkit ARGS`` as a subprocess, as a user would.

    Args:
        *args: The command line after ``toolkit``.
        env: Variables added to the environment (``COLUMNS=200`` keeps tables on one line).
        cwd: The working directory; default the repository root.
        timeout: Seconds before the run is abandoned (the embedded model on two shared cores
            can be slow to answer).
        inherit: Start from this process's environment; ``False`` starts from
            :func:`clean_env` instead, as a user with nothing configured would.

    Returns:
        The finished process, stdout and stderr as text.
    """
    base = dict(os.environ) if inherit else clean_env()
    environ = {**base, "COLUMNS": "200", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "toolkit", *args],
        capture_output=True,
        text=True,
        env=environ,
        cwd=cwd or ROOT,
        timeout=timeout,
    )


def embedded_chat(server: Any, timeout: float = 600) -> Any:
    """LangChain's ``ChatOpenAI`` on the embedded server: greedy, no retries.

    Args:
        server: A running :class:`~toolkit.local.server.runner.EmbeddedServer`.
        timeout: Seconds per request (a slow machine's first prompt takes long).

    Returns:
        The chat model.
    """
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model="local",
        base_url=server.base_url,
        api_key=server.api_key or "local",
        temperature=0,
        timeout=timeout,
        max_retries=0,
    )


def typed_tool(tool: str, **parameters: str) -> dict[str, Any]:
    """An OpenAI tool of required parameters of the given JSON types.

    Args:
        tool: The tool's name.
        **parameters: Parameter name -> JSON type ("number", "string", …).

    Returns:
        The tool, as a request's ``tools`` holds it.
    """
    return {
        "type": "function",
        "function": {
            "name": tool,
            "parameters": {
                "type": "object",
                "properties": {p: {"type": kind} for p, kind in parameters.items()},
                "required": list(parameters),
            },
        },
    }
