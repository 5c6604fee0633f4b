"""Cold start of ``toolkit run``: a fresh process each time, against the bare interpreter.

Every command runs as a subprocess (``[sys.executable, "-m", "toolkit", ...]``) with a clean
environment (no provider variables of the caller, no ``.env``; only ``PATH``, the home and temp
directories and ``TOOLKIT_CACHE_DIR`` are passed on) and the repository root as working
directory. Measured side by side in one run, the commands taking turns, median of ``repeats``
runs each after one untimed warm-up run (so byte code and the disk cache are warm: this is the
start of a process, not of a freshly booted machine):

1. ``python -c pass``: the interpreter alone, the baseline.
2. ``toolkit --help`` and ``toolkit schema tools:SEED_TOOLS --json``: the CLI with LangChain
   imported but no model.
3. ``toolkit run --json --tools tools:SEED_TOOLS --tool-choice none --max-steps 1 "Say hello in
   one word."`` (one model call, answered in text) against a provider endpoint: a real
   OpenAI-compatible HTTP server on loopback (:class:`toolkit.testing.ScriptedServer`) answering
   instantly, configured through ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``.
4. The same ``toolkit run`` with nothing configured: the embedded model, including loading the
   weights from the cache, starting the in-process server and the model's own (short) reply.

For both runs the wall time is split with the loop's own ``elapsed`` (from ``--json``): the
time outside the loop is start-up (imports, settings, the client or the embedded model and its
server) plus process exit; the rest is the loop.
Run: ``python bench/cold_start.py [repeats] [--no-model]`` (default 5; ``--no-model`` leaves
out the embedded model).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import Result, print_table, rotations
from toolkit.testing.server import ScriptedServer, completion

__all__ = ["QUESTION", "clean_env", "main", "measure"]

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "Say hello in one word."
_RUN = ["run", "--json", "--tools", "tools:SEED_TOOLS", "--tool-choice", "none", "--max-steps", "1"]
_PASSED_ON = ("PATH", "HOME", "USERPROFILE", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP", "LANG")


def _row(measure: str, ours: float, baseline: float | None) -> Result:
    return Result("cold_start", measure, "s", ours, baseline)


def clean_env(**extra: str) -> dict[str, str]:
    """An environment with none of the caller's provider or toolkit settings.

    Args:
        **extra: Variables to add, e.g. ``OPENAI_BASE_URL``.

    Returns:
        ``PATH`` and the home/temp/locale variables of this process, ``TOOLKIT_CACHE_DIR`` if
        set (where the weights are), ``TOOLKIT_ENV_FILE`` pointing at a file that does not
        exist (so no ``.env`` is read), and ``extra``.
    """
    env = {name: os.environ[name] for name in _PASSED_ON if name in os.environ}
    if "TOOLKIT_CACHE_DIR" in os.environ:
        env["TOOLKIT_CACHE_DIR"] = os.environ["TOOLKIT_CACHE_DIR"]
    env["TOOLKIT_ENV_FILE"] = str(Path(tempfile.gettempdir()) / "toolkit-bench-no.env")
    env.update(extra)
    return env


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        output = (done.stderr or done.stdout)[-2000:]
        raise RuntimeError(f"{' '.join(command[1:])} exited with {done.returncode}: {output}")
    return seconds, done.stdout


def _loop_seconds(stdout: str) -> float:
    """The loop's own ``elapsed`` from ``toolkit run --json``, checking that it answered."""
    result = json.loads(stdout)
    if result["status"] != "answered":
        raise RuntimeError(f"toolkit run did not answer: {result['status']}: {result['error']}")
    return float(result["elapsed"])


def _commands(server: ScriptedServer, model: bool) -> dict[str, Callable[[], tuple[float, str]]]:
    python = sys.executable
    plain = clean_env()
    endpoint = clean_env(OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="bench-key")

    def run_endpoint() -> tuple[float, str]:
        server.add(completion("Hello!"))  # one reply per run, sent at once
        return _timed([python, "-m", "toolkit", *_RUN, QUESTION], endpoint)

    commands = {
        "interpreter": lambda: _timed([python, "-c", "pass"], plain),
        "help": lambda: _timed([python, "-m", "toolkit", "--help"], plain),
        "schema": lambda: _timed(
            [python, "-m", "toolkit", "schema", "tools:SEED_TOOLS", "--json"], plain
        ),
        "endpoint": run_endpoint,
    }
    if model:
        commands["embedded"] = lambda: _timed([python, "-m", "toolkit", *_RUN, QUESTION], plain)
    return commands


def measure(repeats: int = 5, model: bool = True) -> list[Result]:
    """Time every command; they take turns, ``repeats`` timed runs each after a warm-up.

    Args:
        repeats: Timed runs per command (the median counts).
        model: Include ``toolkit run`` on the embedded model (loads the weights every run).

    Returns:
        The rows: CLI and endpoint run against the interpreter, the start-up of the run, and,
        with ``model``, the embedded run against the endpoint run.

    Raises:
        RuntimeError: A command failed or ``toolkit run`` did not answer.
    """
    walls: dict[str, list[float]] = {}
    loops: dict[str, list[float]] = {"endpoint": [], "embedded": []}
    with ScriptedServer() as server:
        commands = _commands(server, model)
        for command in commands.values():
            command()  # warm-up: byte code written, files in the disk cache
        for name in rotations(list(commands), repeats):
            seconds, stdout = commands[name]()
            walls.setdefault(name, []).append(seconds)
            if name in loops:
                loops[name].append(_loop_seconds(stdout))
    wall = {name: statistics.median(times) for name, times in walls.items()}
    outside = {
        name: statistics.median(w - e for w, e in zip(walls[name], times, strict=True))
        for name, times in loops.items()
        if times
    }
    rows = [
        _row("toolkit --help vs python -c pass", wall["help"], wall["interpreter"]),
        _row("toolkit schema vs python -c pass", wall["schema"], wall["interpreter"]),
        _row("toolkit run, endpoint, vs python -c pass", wall["endpoint"], wall["interpreter"]),
        _row("toolkit run, endpoint, vs toolkit --help", wall["endpoint"], wall["help"]),
        _row("toolkit run, endpoint: outside the loop", outside["endpoint"], None),
    ]
    if model:
        embedded_loop = statistics.median(loops["embedded"])
        rows += [
            _row("toolkit run, embedded vs endpoint", wall["embedded"], wall["endpoint"]),
            _row(
                "outside the loop, embedded vs endpoint", outside["embedded"], outside["endpoint"]
            ),
            _row("toolkit run, embedded: the loop (generation)", embedded_loop, None),
        ]
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the measurements and the ratios side by side.

    Args:
        argv: ``[repeats] [--no-model]`` optionally; default 5 repeats, with the model.

    Returns:
        0 (the numbers are information, not a test).
    """
    args = sys.argv[1:] if argv is None else argv
    numbers = [a for a in args if a != "--no-model"]
    print_table(measure(int(numbers[0]) if numbers else 5, model="--no-model" not in args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
