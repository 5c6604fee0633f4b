"""`toolkit schema` and `toolkit lint` as a user runs them: real subprocesses."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import ROOT, run_toolkit

FIXTURES = Path(__file__).parent / "fixtures" / "lint"


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return run_toolkit(*args, env={"PYTHONPATH": str(ROOT)}, cwd=cwd, timeout=120)


def _clean_error(result: subprocess.CompletedProcess) -> str:
    """A usage error: exit 2, one line on stderr, no traceback."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


# --- lint ------------------------------------------------------------------------------------


def test_lint_of_the_example_tools_is_clean() -> None:
    result = _run("lint", "tools")
    assert result.returncode == 0, result.stdout
    assert "No problems found" in result.stdout


def test_lint_fixture_directory_reports_every_rule_as_json() -> None:
    result = _run("lint", str(FIXTURES), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    codes = {f["code"] for f in report["findings"]}
    assert codes == {f"TK{n}" for n in range(101, 118)}
    assert report["errors"] == sum(f["severity"] == "error" for f in report["findings"])
    assert report["files"] == len(list(FIXTURES.glob("*.py")))
    first = report["findings"][0]
    assert set(first) == {"code", "severity", "path", "line", "tool", "message", "fix"}


def test_lint_rich_output_names_file_line_code_and_fix() -> None:
    result = _run("lint", str(FIXTURES / "tk110_returns_no_blank.py"))
    assert result.returncode == 1
    assert "tk110_returns_no_blank.py:12" in result.stdout
    assert "TK110" in result.stdout and "fix:" in result.stdout
    assert "1 error, 0 warnings in 1 file" in result.stdout


def test_warnings_alone_exit_zero_and_select_ignore_filter() -> None:
    vague = str(FIXTURES / "tk115_vague.py")
    assert _run("lint", vague).returncode == 0
    both = [vague, str(FIXTURES / "tk105_not_in_signature.py")]
    assert _run("lint", *both).returncode == 1
    ignored = _run("lint", *both, "--ignore", "TK105", "--json")
    assert ignored.returncode == 0
    assert {f["code"] for f in json.loads(ignored.stdout)["findings"]} == {"TK115"}
    selected = _run("lint", *both, "--select", "tk10", "--json")
    assert {f["code"] for f in json.loads(selected.stdout)["findings"]} == {"TK105"}


def test_lint_unknown_select_code_is_a_usage_error() -> None:
    assert "unknown rule code XX9" in _clean_error(_run("lint", "tools", "--select", "XX9"))


def test_lint_lists_its_rules() -> None:
    result = _run("lint", "--rules")
    assert result.returncode == 0
    assert all(f"TK{n}" in result.stdout for n in range(100, 118))


def test_lint_nonexistent_target() -> None:
    line = _clean_error(_run("lint", "no/such/place.py"))
    assert "no/such/place.py: no such file or directory" in line


def test_lint_unknown_module_name() -> None:
    assert "'nonexistent_module_q'" in _clean_error(_run("lint", "nonexistent_module_q"))


def test_lint_file_with_syntax_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1\ndef f(:\n")
    assert f"{bad}:2: syntax error" in _clean_error(_run("lint", str(bad)))


def test_lint_reads_a_module_that_raises_on_import(tmp_path: Path) -> None:
    (tmp_path / "boom.py").write_text(
        "raise RuntimeError('no')\n\n\ndef f(x: int) -> int:\n    return x\n\n\nTOOLS = [f]\n"
    )
    result = _run("lint", "boom", "--json", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert [(f["code"], f["line"]) for f in json.loads(result.stdout)["findings"]] == [("TK101", 4)]


# --- schema ----------------------------------------------------------------------------------


def test_schema_json_of_the_example_tools() -> None:
    result = _run("schema", "tools", "--json")
    assert result.returncode == 0, result.stderr
    schemas = json.loads(result.stdout)
    names = [s["function"]["name"] for s in schemas]
    assert "get_weather" in names and "add" in names and len(names) == len(set(names))
    assert all(s["type"] == "function" for s in schemas)


def test_schema_rich_output_shows_every_tool_and_description() -> None:
    result = _run("schema", "tools")
    assert result.returncode == 0, result.stderr
    schemas = json.loads(_run("schema", "tools", "--json").stdout)
    for schema in schemas:
        assert schema["function"]["name"] in result.stdout
    assert "Parameters" in result.stdout and "(none)" not in result.stdout


def test_schema_of_one_function_strict() -> None:
    result = _run("schema", "tools:get_weather", "--json", "--strict")
    assert result.returncode == 0, result.stderr
    (schema,) = json.loads(result.stdout)
    assert schema["function"]["strict"] is True
    assert schema["function"]["parameters"]["additionalProperties"] is False


def test_schema_of_a_file_and_a_plain_function(tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text(
        "def area(width: float, height: float) -> float:\n"
        '    """Compute the area of a rectangle.\n\n    Args:\n'
        "        width: The width in metres.\n        height: The height in metres.\n"
        '    """\n    return width * height\n'
    )
    result = _run("schema", str(path), "--json")
    assert result.returncode == 0, result.stderr
    (schema,) = json.loads(result.stdout)
    props = schema["function"]["parameters"]["properties"]
    assert props["width"]["description"] == "The width in metres."


@pytest.mark.parametrize("target", ["no_such_tools_module", "missing/tools.py"])
def test_schema_nonexistent_target(target: str) -> None:
    assert target in _clean_error(_run("schema", target))


def test_schema_file_with_syntax_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad_tools.py"
    bad.write_text("from x import (\n")
    assert "bad_tools.py:1: syntax error" in _clean_error(_run("schema", str(bad)))


def test_schema_module_raising_on_import(tmp_path: Path) -> None:
    (tmp_path / "raises_tools.py").write_text("raise ValueError('bad config')\n")
    line = _clean_error(_run("schema", "raises_tools", cwd=tmp_path))
    assert line == "error: importing raises_tools failed: ValueError: bad config"


def test_schema_of_a_tool_file_broken_by_a_pitfall_points_to_lint() -> None:
    line = _clean_error(_run("schema", str(FIXTURES / "tk105_not_in_signature.py")))
    assert "Arg country in docstring not found in function signature" in line
    command = "toolkit lint tests/fixtures/lint/tk105_not_in_signature.py"
    assert f"(`{command}` shows why: TK105 at line 12)" in line


# --- schema and lint agree, on the seed tutorial's own example (section 2.2) -----------------

#: Its 2.2.4 example and its 2.2.3 "forgot the blank line" one, plain functions with no @tool.
TUTORIAL = '''def get_weather(city):
    """天气查询工具

    Args:
        city: 城市名称
    """
def get_weather2(city: str):
    """查询城市天气
    Args:
        city:具体的城市
    """
'''


@pytest.fixture
def tutorial(tmp_path: Path) -> Path:
    (tmp_path / "my_tools.py").write_text(TUTORIAL, encoding="utf-8")
    return tmp_path


def test_lint_reports_the_tutorials_plain_functions(tutorial: Path) -> None:
    result = _run("lint", "my_tools.py", cwd=tutorial)
    assert result.returncode == 1, result.stdout
    assert "my_tools.py:5  TK106 error  get_weather" in result.stdout
    assert "my_tools.py:9  TK102 error  get_weather2" in result.stdout
    assert "fix: Annotate it, e.g. `city: str`." in result.stdout
    assert "fix: Put an empty line (no spaces) before `Args:`." in result.stdout
    report = json.loads(_run("lint", "my_tools.py", "--json", cwd=tutorial).stdout)
    assert [(f["code"], f["line"]) for f in report["findings"]] == [("TK106", 5), ("TK102", 9)]
    assert report["not_linted"] == []


def test_schema_fails_and_names_the_lint_command_that_shows_why(tutorial: Path) -> None:
    result = _run("schema", "my_tools.py", cwd=tutorial)
    assert result.returncode == 2
    assert "tool 'get_weather' cannot be used" in result.stderr
    assert "`toolkit lint my_tools.py` shows why: TK106 at line 5" in result.stderr
    assert "get_weather2" in result.stdout  # the tool that converts is still shown
    named = _run(*result.stderr.split("`")[1].split()[1:], cwd=tutorial)
    assert named.returncode == 1 and "my_tools.py:5  TK106" in named.stdout


def test_schema_json_says_which_tool_failed_and_why(tutorial: Path) -> None:
    result = _run("schema", "my_tools.py", "--json", cwd=tutorial)
    assert result.returncode == 2
    failed, converted = json.loads(result.stdout)
    assert failed["type"] == "error" and failed["tool"] == "get_weather"
    assert failed["target"] == "my_tools.py"
    assert "Arg city in docstring not found in function signature" in failed["errors"][0]
    assert failed["lint"]["command"] == "toolkit lint my_tools.py"
    assert [(f["code"], f["line"]) for f in failed["lint"]["findings"]] == [("TK106", 5)]
    assert converted["type"] == "function" and converted["function"]["name"] == "get_weather2"


def test_schema_json_of_a_target_that_cannot_be_loaded() -> None:
    result = _run("schema", "no_such_tools_module", "--json")
    assert result.returncode == 2
    (entry,) = json.loads(result.stdout)
    assert entry["type"] == "error" and entry["tool"] is None and entry["lint"] is None
    assert "no_such_tools_module: no such module" in entry["errors"][0]


def test_lint_says_how_many_public_functions_it_left_out(tmp_path: Path) -> None:
    (tmp_path / "mixed.py").write_text(
        "from langchain_core.tools import tool\n\n\n"
        '@tool(parse_docstring=True)\ndef ok(x: int) -> int:\n    """Return x.\n\n'
        '    Args:\n        x: Any whole number.\n    """\n    return x\n\n\n'
        "def helper(city):\n    return city\n\n\ndef other():\n    return 1\n"
    )
    result = _run("lint", "mixed.py", cwd=tmp_path)
    assert result.returncode == 0
    assert "No problems found in 1 file." in result.stdout
    assert "2 public functions not linted as tools" in " ".join(result.stdout.split())
    assert "--all-functions lints them too" in " ".join(result.stdout.split())
    report = json.loads(_run("lint", "mixed.py", "--json", cwd=tmp_path).stdout)
    assert [(n["function"], n["line"]) for n in report["not_linted"]] == [
        ("helper", 14),
        ("other", 18),
    ]
    every = _run("lint", "mixed.py", "--all-functions", "--json", cwd=tmp_path)
    assert every.returncode == 1
    assert json.loads(every.stdout)["not_linted"] == []
