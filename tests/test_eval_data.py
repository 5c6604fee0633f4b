"""BFCL data: loading cases (fixture files and the installed package) and converting tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from toolkit.errors import ConfigError, ToolDefinitionError
from toolkit.eval.bfcl_data import (
    CATEGORIES,
    DEFAULT_CATEGORIES,
    bfcl_data_dir,
    category_of,
    load_cases,
    openai_tool_name,
    to_openai_tool,
)

DIALECT_DOC = {
    "name": "weather.get_forecast",
    "description": "Forecast for a place.",
    "parameters": {
        "type": "dict",
        "properties": {
            "coordinates": {"type": "tuple", "items": {"type": "float"}, "description": "Lat/lon."},
            "days": {"type": "integer", "description": "Days.", "default": 3, "optional": True},
            "units": {"type": "string", "enum": ["metric", "imperial"], "description": "Units."},
            "callback": {"type": "any", "description": "Anything."},
            "options": {
                "type": "dict",
                "properties": {"detail": {"type": "boolean"}, "scale": {"type": "float"}},
                "required": ["detail"],
                "description": "Options.",
            },
            "matrix": {"type": "array", "items": {"type": "list", "items": {"type": "integer"}}},
            "untyped": {"description": "No type given."},
        },
        "required": ["coordinates"],
    },
}


def test_dialect_types_become_json_schema_types() -> None:
    tool = to_openai_tool(DIALECT_DOC)
    function = tool["function"]
    assert tool["type"] == "function"
    assert function["name"] == "weather_get_forecast"
    params = function["parameters"]
    assert params["type"] == "object" and params["required"] == ["coordinates"]
    props = params["properties"]
    assert props["coordinates"] == {
        "type": "array",
        "description": "Lat/lon.",
        "items": {"type": "number"},
    }
    assert props["days"] == {"type": "integer", "description": "Days.", "default": 3}
    assert props["units"]["enum"] == ["metric", "imperial"]
    assert props["callback"]["type"] == "string"
    assert props["options"]["type"] == "object"
    assert props["options"]["properties"]["scale"] == {"type": "number"}
    assert props["options"]["required"] == ["detail"]
    assert props["matrix"]["items"] == {"type": "array", "items": {"type": "integer"}}
    assert props["untyped"]["type"] == "string"
    Draft202012Validator.check_schema(params)
    assert "dict" not in json.dumps(tool) and "optional" not in json.dumps(tool)


def test_conversion_does_not_change_the_original_doc() -> None:
    before = json.dumps(DIALECT_DOC, sort_keys=True)
    to_openai_tool(DIALECT_DOC)
    assert json.dumps(DIALECT_DOC, sort_keys=True) == before


def test_unknown_types_are_reported_with_function_and_parameter() -> None:
    doc = {
        "name": "f",
        "parameters": {"type": "dict", "properties": {"x": {"type": "HashMap"}}, "required": []},
    }
    with pytest.raises(ToolDefinitionError) as info:
        to_openai_tool(doc)
    assert "f" in str(info.value) and "x" in str(info.value) and "HashMap" in str(info.value)


def test_tool_names_are_made_valid() -> None:
    assert openai_tool_name("math.factorial") == "math_factorial"
    assert openai_tool_name("a.b.c-d_e") == "a_b_c-d_e"
    assert openai_tool_name("uk/finance tax") == "uk_finance_tax"


def test_category_of_picks_the_longest_prefix() -> None:
    assert category_of("parallel_3") == "parallel"
    assert category_of("parallel_multiple_3") == "parallel_multiple"
    assert category_of("live_parallel_multiple_1-1-0") == "live_parallel_multiple"
    assert category_of("simple_python_0") == "simple_python"
    with pytest.raises(ConfigError, match="not the id of a case"):
        category_of("simple_java_1")


def _write(folder: Path, name: str, rows: list[dict]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    text = "\n".join(json.dumps(row) for row in rows) + "\n"
    (folder / name).write_text(text, encoding="utf-8")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    rows = [
        {
            "id": f"simple_python_{n}",
            "question": [[{"role": "user", "content": f"question {n}"}]],
            "function": [DIALECT_DOC],
        }
        for n in range(3)
    ]
    answers = [
        {"id": f"simple_python_{n}", "ground_truth": [{DIALECT_DOC["name"]: {}}]} for n in range(3)
    ]
    _write(tmp_path, "BFCL_v4_simple_python.json", rows)
    _write(tmp_path / "possible_answer", "BFCL_v4_simple_python.json", answers)
    irrelevant = [{**rows[0], "id": "irrelevance_0"}]
    _write(tmp_path, "BFCL_v4_irrelevance.json", irrelevant)
    return tmp_path


def test_load_cases_from_a_directory(data_dir: Path) -> None:
    cases = load_cases(["simple_python", "irrelevance"], data_dir=data_dir)
    assert [case.id for case in cases] == [
        "simple_python_0",
        "simple_python_1",
        "simple_python_2",
        "irrelevance_0",
    ]
    first = cases[0]
    assert first.kind == "simple" and cases[-1].kind == "irrelevance"
    assert first.messages == [{"role": "user", "content": "question 0"}]
    assert first.names == {"weather_get_forecast": "weather.get_forecast"}
    assert first.answer == [{"weather.get_forecast": {}}] and cases[-1].answer == []


def test_limit_is_per_category_and_ids_select(data_dir: Path) -> None:
    cases = load_cases(["simple_python", "irrelevance"], limit=1, data_dir=data_dir)
    assert [case.id for case in cases] == ["simple_python_0", "irrelevance_0"]
    chosen = load_cases(["simple_python"], ids=["simple_python_2"], data_dir=data_dir)
    assert [case.id for case in chosen] == ["simple_python_2"]


def test_unknown_ids_categories_and_missing_files_are_errors(data_dir: Path) -> None:
    with pytest.raises(ConfigError, match=r"1 id.*simple_python_9"):
        load_cases(["simple_python"], ids=["simple_python_9"], limit=1, data_dir=data_dir)
    with pytest.raises(ConfigError, match="unknown BFCL category simple_rust; choose from"):
        load_cases(["simple_rust"], data_dir=data_dir)
    with pytest.raises(ConfigError, match=r"no BFCL_v\*_multiple\.json"):
        load_cases(["multiple"], data_dir=data_dir)
    with pytest.raises(ConfigError, match="--limit 0 must be at least 1"):
        load_cases(["simple_python"], limit=0, data_dir=data_dir)


def test_a_broken_line_names_file_and_line(data_dir: Path) -> None:
    path = data_dir / "BFCL_v4_irrelevance.json"
    path.write_text(path.read_text() + "{not json\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"BFCL_v4_irrelevance\.json:2 is not JSON"):
        load_cases(["irrelevance"], data_dir=data_dir)


def test_the_installed_package_has_every_category() -> None:
    data = bfcl_data_dir()
    assert data.name == "data" and (data / "possible_answer").is_dir()
    assert set(DEFAULT_CATEGORIES) <= set(CATEGORIES)
    cases = load_cases(list(CATEGORIES), limit=2)
    assert [case.category for case in cases] == [c for c in CATEGORIES for _ in range(2)]
    factorial = load_cases(["simple_python"], ids=["simple_python_1"])[0]
    assert factorial.tools[0]["function"]["name"] == "math_factorial"
    assert factorial.names == {"math_factorial": "math.factorial"}
    assert factorial.answer == [{"math.factorial": {"number": [5]}}]


def test_every_real_tool_converts_to_a_valid_json_schema() -> None:
    cases = load_cases(list(CATEGORIES))
    assert len(cases) > 3000
    distinct = {json.dumps(tool, sort_keys=True) for case in cases for tool in case.tools}
    metaschema = Draft7Validator(Draft7Validator.META_SCHEMA)  # 2020-12's is 6x slower
    for text in distinct:
        metaschema.validate(json.loads(text)["function"]["parameters"])
    for case in cases:
        assert sorted(case.names.values()) == sorted(f["name"] for f in case.functions)
