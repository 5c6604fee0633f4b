"""The schema inspector: tool-like objects -> OpenAI tool dicts, parameter rows, TARGET loading."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Literal

import pytest
from langchain_core.tools import BaseTool, tool
from pydantic import BaseModel, Field

from toolkit.errors import TargetError, ToolDefinitionError
from toolkit.schema import ParameterRow, parameters_table, tool_schema
from toolkit.targets import load_targets


@tool(parse_docstring=True)
def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
    """Get the current weather for a city.

    Args:
        city: The city, e.g. "Beijing".
        unit: The temperature unit.
    """
    return city + unit


def add(x: int, y: int, tags: list[str] | None = None) -> int:
    """Add two integers.

    Args:
        x: The first addend.
        y: The second addend.
        tags: Labels for the sum.
    """
    return x + y


class Forecast(BaseModel):
    """Tomorrow's forecast for a city."""

    city: str = Field(description="The city, e.g. Beijing.")
    days: int = Field(default=1, description="How many days ahead.")


class Echo(BaseTool):
    name: str = "echo"
    description: str = "Repeat the text back."

    def _run(self, text: str) -> str:
        return text


def test_tool_object_schema_matches_the_seed_shape() -> None:
    schema = tool_schema(get_weather)
    assert schema == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather for a city.",
            "parameters": {
                "properties": {
                    "city": {"description": 'The city, e.g. "Beijing".', "type": "string"},
                    "unit": {
                        "default": "celsius",
                        "description": "The temperature unit.",
                        "enum": ["celsius", "fahrenheit"],
                        "type": "string",
                    },
                },
                "required": ["city"],
                "type": "object",
            },
        },
    }


def test_plain_function_docstring_is_parsed() -> None:
    function = tool_schema(add)["function"]
    assert function["name"] == "add"
    assert function["parameters"]["properties"]["x"]["description"] == "The first addend."
    assert function["parameters"]["required"] == ["x", "y"]


def test_pydantic_model_and_base_tool() -> None:
    forecast = tool_schema(Forecast)["function"]
    assert forecast["name"] == "Forecast"
    assert forecast["parameters"]["properties"]["days"]["default"] == 1
    echo = tool_schema(Echo())["function"]
    assert echo["name"] == "echo" and echo["description"] == "Repeat the text back."
    assert set(echo["parameters"]["properties"]) == {"text"}


def test_openai_dict_passes_through_and_can_be_made_strict() -> None:
    given = tool_schema(get_weather)
    assert tool_schema(given) == given
    strict = tool_schema(given, strict=True)
    assert strict["function"]["strict"] is True
    assert strict["function"]["parameters"]["additionalProperties"] is False
    assert "strict" not in given["function"]  # the input is not changed


def test_strict_mode_for_a_tool() -> None:
    function = tool_schema(get_weather, strict=True)["function"]
    assert function["strict"] is True
    assert function["parameters"]["additionalProperties"] is False
    assert "strict" not in tool_schema(get_weather)["function"]


def test_not_a_tool_is_a_definition_error() -> None:
    with pytest.raises(ToolDefinitionError, match="is not a tool"):
        tool_schema(42)


def test_conversion_failure_names_the_tool() -> None:
    def broken(city: str) -> str:
        """Look up a city.

        Args:
            city: The city.
            country: Not a parameter.
        """
        return city

    with pytest.raises(ToolDefinitionError) as info:
        tool_schema(broken)
    assert info.value.tool_name == "broken"
    assert "Arg country in docstring not found" in str(info.value)
    assert "toolkit lint" in str(info.value)


def test_parameters_table_rows() -> None:
    rows = parameters_table(tool_schema(get_weather))
    assert rows == [
        ParameterRow("city", "string", True, None, 'The city, e.g. "Beijing".'),
        ParameterRow(
            "unit", '"celsius" | "fahrenheit"', False, '"celsius"', "The temperature unit."
        ),
    ]
    tags = parameters_table(tool_schema(add))[2]
    assert (tags.type, tags.required, tags.default) == ("array[string] | null", False, "null")


def test_parameters_table_of_untyped_and_parameterless_tools() -> None:
    @tool
    def loose(value) -> str:
        """Take anything."""
        return str(value)

    @tool
    def now() -> str:
        """Return the time."""
        return "noon"

    assert parameters_table(tool_schema(loose)) == [ParameterRow("value", "any", True, None, "")]
    assert parameters_table(tool_schema(now)) == []


# --- TARGET loading ---------------------------------------------------------------------------

_TOOLS_FILE = '''
from langchain_core.tools import tool


@tool(parse_docstring=True)
def first(x: int) -> int:
    """Return x.

    Args:
        x: A number.
    """
    return x


@tool(parse_docstring=True)
def second(y: int) -> int:
    """Return y.

    Args:
        y: A number.
    """
    return y


def helper(z: int) -> int:
    """Not listed."""
    return z
'''


@pytest.fixture
def tool_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _names(objects: list) -> list[str]:
    return [getattr(o, "name", None) or o.__name__ for o in objects]


def test_file_target_collects_base_tools_in_order(tool_dir: Path) -> None:
    path = tool_dir / "mytools.py"
    path.write_text(_TOOLS_FILE)
    assert _names(load_targets(str(path))) == ["first", "second"]


def test_module_target_prefers_all_tools(tool_dir: Path) -> None:
    (tool_dir / "listed_tools.py").write_text(_TOOLS_FILE + "\nALL_TOOLS = [second]\n")
    assert _names(load_targets("listed_tools")) == ["second"]


def test_module_of_plain_functions(tool_dir: Path) -> None:
    (tool_dir / "plain_funcs.py").write_text(
        "import os\n\n\ndef one(a: int) -> int:\n    '''One.'''\n    return a\n\n\n"
        "def _hidden(b: int) -> int:\n    return b\n"
    )
    assert _names(load_targets("plain_funcs")) == ["one"]


def test_attribute_targets(tool_dir: Path) -> None:
    path = tool_dir / "attr_tools.py"
    path.write_text(_TOOLS_FILE + "\nGROUP = [first, helper]\n")
    assert _names(load_targets(f"{path}:helper")) == ["helper"]
    assert _names(load_targets("attr_tools:GROUP")) == ["first", "helper"]


def test_file_importing_a_sibling(tool_dir: Path) -> None:
    sub = tool_dir / "pkgless"
    sub.mkdir()
    (sub / "sibling_helper.py").write_text("VALUE = 3\n")
    (sub / "uses_sibling.py").write_text(
        "from sibling_helper import VALUE\n\n\ndef f(x: int) -> int:\n    '''Add.'''\n"
        "    return x + VALUE\n"
    )
    assert _names(load_targets(str(sub / "uses_sibling.py"))) == ["f"]
    assert str(sub) not in sys.path


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("no_such_module_abc", "no_such_module_abc: no such module"),
        ("missing/file.py", "missing/file.py: no such file"),
    ],
)
def test_missing_targets(target: str, message: str) -> None:
    with pytest.raises(TargetError, match=message):
        load_targets(target)


def test_directory_target_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TargetError, match="is a directory"):
        load_targets(str(tmp_path) + "/")


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("x = 1\n\ndef f(:\n    pass\n")
    with pytest.raises(TargetError, match=r"broken\.py:3: syntax error"):
        load_targets(str(path))


def test_module_raising_on_import(tool_dir: Path) -> None:
    (tool_dir / "raising_mod.py").write_text("raise RuntimeError('database unreachable')\n")
    with pytest.raises(TargetError) as info:
        load_targets("raising_mod")
    assert str(info.value) == "importing raising_mod failed: RuntimeError: database unreachable"
    assert "raising_mod" not in sys.modules


def test_import_of_a_missing_dependency_is_not_reported_as_missing_target(tool_dir: Path) -> None:
    (tool_dir / "needs_dep.py").write_text("import not_installed_dep_xyz\n")
    with pytest.raises(TargetError, match="importing needs_dep failed: ModuleNotFoundError"):
        load_targets("needs_dep")


def test_script_calling_exit_on_import(tmp_path: Path) -> None:
    path = tmp_path / "script.py"
    path.write_text("import sys\nsys.exit(3)\n")
    with pytest.raises(TargetError, match="SystemExit: 3"):
        load_targets(str(path))


def test_missing_attribute_lists_what_exists(tool_dir: Path) -> None:
    (tool_dir / "few.py").write_text(textwrap.dedent(_TOOLS_FILE))
    with pytest.raises(TargetError, match=r"no attribute 'third'; it defines: .*first"):
        load_targets("few:third")


def test_module_without_tools(tool_dir: Path) -> None:
    (tool_dir / "empty_mod.py").write_text("X = 1\n")
    with pytest.raises(TargetError, match="defines no tools"):
        load_targets("empty_mod")


def test_typed_dict_is_tool_like() -> None:
    from typing_extensions import TypedDict

    class Point(TypedDict):
        """A point on the map."""

        x: int
        y: int

    function = tool_schema(Point)["function"]
    assert function["name"] == "Point"
    assert set(function["parameters"]["properties"]) == {"x", "y"}


# --- Rendering ---------------------------------------------------------------------------------


def test_schema_panel_marks_parameters_without_description() -> None:
    from rich.console import Console

    from toolkit.render import schema_panel

    @tool
    def loose(value: str) -> str:
        """Echo the value back."""
        return value

    console = Console(record=True, width=120, color_system=None)
    console.print(schema_panel(tool_schema(loose, strict=True)))
    text = console.export_text()
    assert "loose" in text and "Echo the value back." in text
    assert "(none)" in text and "strict" in text


def test_render_findings_summary_lines() -> None:
    from rich.console import Console

    from toolkit.lint import lint_source
    from toolkit.render import render_findings

    source = (
        "from langchain_core.tools import tool\n\n\n@tool\ndef f(x: int) -> int:\n    return x\n"
    )
    console = Console(record=True, width=120, color_system=None)
    render_findings(lint_source(source, "f.py"), console, files=1)
    render_findings([], console, files=3)
    text = console.export_text()
    assert "f.py:5  TK101 error  f" in text and "fix: Write a docstring" in text
    assert "Found 1 error, 0 warnings in 1 file." in text
    assert "No problems found in 3 files." in text
