"""The bench/ suite as a subprocess: its structure and options, never its timing goals.

The embedded model is left out (``--no-model``); the suite run is shared by the tests of this
module, as it takes a while.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from toolkit.lint import lint_source

ROOT = Path(__file__).resolve().parents[1]
#: Provider settings a careless benchmark would pass on to ``toolkit run``: a provider that
#: refuses connections, so a leak makes the endpoint run fail instead of answering.
LEAKED = {
    "QWEN_API_KEY": "sk-bench-leak-never-used",
    "QWEN_BASE_URL": "http://127.0.0.1:9/v1",
    "TOOLKIT_PROVIDER": "remote",
}


def _bench(*args: str, **env_vars: str) -> subprocess.CompletedProcess:
    env = {**os.environ, **env_vars}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def _load(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT))
    return importlib.import_module(f"bench.{name}")


@pytest.fixture(scope="module")
def suite() -> dict:
    done = _bench(
        "-m",
        "bench",
        "--only",
        "schema_conversion,cold_start",
        "--quick",
        "--no-model",
        "--json",
        **LEAKED,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_suite_reports_every_row_with_absolute_figures_and_ratios(suite: dict) -> None:
    # No errors: the endpoint run answered from the loopback server, not the leaked provider.
    assert suite["errors"] == {}
    assert suite["skipped"] == []
    assert suite["quick"] is True
    results = suite["results"]
    assert [r["benchmark"] for r in results] == ["schema_conversion"] * 3 + ["cold_start"] * 5
    for row in results:
        assert set(row) == {
            "benchmark",
            "measure",
            "unit",
            "ours",
            "baseline",
            "goal",
            "met",
            "ratio",
        }
        assert row["ours"] > 0 and row["unit"]
        if row["baseline"] is None:
            assert row["ratio"] is None
        else:
            assert row["baseline"] > 0
            assert math.isclose(row["ratio"], row["ours"] / row["baseline"])
        assert (row["met"] is None) == (row["goal"] == "")


def test_schema_conversion_compares_the_toolkit_with_langchain(suite: dict) -> None:
    rows = [r for r in suite["results"] if r["benchmark"] == "schema_conversion"]
    measures = [r["measure"] for r in rows]
    assert len(rows) == 3
    assert any("tool_schema vs convert_to_openai_tool" in m for m in measures)
    assert any("bare.tool" in m and "same schemas" in m for m in measures)
    assert any("lint" in m for m in measures)
    assert {r["unit"] for r in rows} == {"ms/1,000 tools"}


def test_cold_start_without_the_model_has_no_embedded_row(suite: dict) -> None:
    rows = [r for r in suite["results"] if r["benchmark"] == "cold_start"]
    measures = [r["measure"] for r in rows]
    assert any("endpoint" in m and "python -c pass" in m for m in measures)
    assert any("--help" in m for m in measures)
    assert not any("embedded" in m for m in measures)
    assert {r["unit"] for r in rows} == {"s"}


def test_no_model_skips_the_benchmarks_that_load_it() -> None:
    done = _bench("-m", "bench", "--only", "server_vs_llama", "--no-model", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["results"] == [] and report["skipped"] == ["server_vs_llama"]


def test_run_script_rejects_an_unknown_benchmark_naming_the_valid_ones() -> None:
    done = _bench("bench/run.py", "--only", "schema_conversion,warp_drive")
    assert done.returncode == 2
    assert "warp_drive" in done.stderr
    for name in ("loop_overhead", "server_vs_llama", "cold_start", "schema_conversion"):
        assert name in done.stderr


def test_table_labels_absolute_figures_and_ratios(monkeypatch: pytest.MonkeyPatch) -> None:
    run = _load("run", monkeypatch)
    table = run.render_table(
        [
            run.Result("cold_start", "a vs b", "s", 3.0, 1.5, "<= 3x", True),
            run.Result("cold_start", "c alone", "s", 0.25),
        ]
    )
    header, first, second = table.splitlines()
    assert "ours (absolute)" in header and "baseline (absolute)" in header
    assert "ratio" in header and "goal" in header and "met?" in header
    assert "2.00x" in first and first.rstrip().endswith("yes")
    assert "c alone (absolute only)" in second and "0.250" in second


def test_cold_start_environment_drops_the_callers_provider(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in {**LEAKED, "OPENAI_API_KEY": "sk-caller"}.items():
        monkeypatch.setenv(name, value)
    env = _load("cold_start", monkeypatch).clean_env(OPENAI_BASE_URL="http://127.0.0.1:1/v1")
    assert not {"QWEN_API_KEY", "QWEN_BASE_URL", "OPENAI_API_KEY", "TOOLKIT_PROVIDER"} & set(env)
    assert env["OPENAI_BASE_URL"] == "http://127.0.0.1:1/v1"
    assert not Path(env["TOOLKIT_ENV_FILE"]).exists()


def test_generated_tools_are_distinct_and_lint_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    source = _load("schema_conversion", monkeypatch).generate_source(50)
    assert source.count("@tool(parse_docstring=True)") == 50
    assert len({line for line in source.splitlines() if line.startswith("def ")}) == 50
    assert lint_source(source, "generated.py") == []
