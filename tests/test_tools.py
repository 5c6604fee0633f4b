"""The example tools: the seed's values, each tool's ordinary use, and clear refusals."""

from __future__ import annotations

import datetime as dt
import sqlite3
from zoneinfo import ZoneInfo

import pytest
from langchain_core.tools import BaseTool, ToolException
from langchain_core.utils.function_calling import convert_to_openai_tool

import tools
from tools.database import DEFAULT_DATABASE, DEFAULT_SCRIPT, build_database, table_summary
from tools.files import DEFAULT_ROOT


def test_all_tools_is_complete_and_sorted_exports() -> None:
    assert tools.__all__ == sorted(tools.__all__)
    names = [t.name for t in tools.ALL_TOOLS]
    assert len(names) == len(set(names))
    assert set(names) == {
        "get_weather",
        "add",
        "calculate",
        "current_time",
        "add_days",
        "days_between",
        "convert_units",
        "search_files",
        "read_file",
        "query_database",
        "describe_database",
        "subtract",
        "multiply",
        "get_price",
        "get_capital",
        "get_population",
    }
    for name in names:
        assert getattr(tools, name) in tools.ALL_TOOLS


@pytest.mark.parametrize("tool", tools.ALL_TOOLS, ids=lambda t: t.name)
def test_every_parameter_has_a_description(tool: BaseTool) -> None:
    function = convert_to_openai_tool(tool)["function"]
    assert len(function["description"]) > 20
    assert "\n" not in function["description"]
    for name, schema in function["parameters"]["properties"].items():
        assert len(schema.get("description", "")) > 15, name
        assert not name.startswith("_")


# --- weather -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("city", "unit", "expected"),
    [
        ("北京", "celsius", "6 °C"),
        ("西安", "celsius", "5 °C"),
        ("北京", "fahrenheit", "42.8 °F"),
        ("西安", "fahrenheit", "41 °F"),
    ],
)
def test_weather_reproduces_the_seed(city: str, unit: str, expected: str) -> None:
    result = tools.get_weather.invoke({"city": city, "unit": unit})
    assert result.startswith(f"{city} (")
    assert f": {expected}," in result


@pytest.mark.parametrize(
    "spelling", ["Xi'an", "Xian", "xi an", "XIAN", "西安市", "Xi'an, China", "西安 (Xi'an)"]
)
def test_weather_accepts_english_and_chinese_spellings(spelling: str) -> None:
    assert tools.get_weather.invoke({"city": spelling}) == "西安 (Xi'an): 5 °C, overcast"


def test_a_name_as_the_tools_list_it_is_known() -> None:
    # "中文 (English)" is how the tools write names: another call may pass one on as it is
    assert tools.get_population.invoke({"city": "东京 (Tokyo)"}).startswith("东京 (Tokyo): ")
    assert tools.get_capital.invoke({"country": "日本 (Japan)"}) == "日本 (Japan): 东京 (Tokyo)"
    with pytest.raises(ToolException, match="Unknown city"):
        tools.get_weather.invoke({"city": "北京 (Tokyo)x"})


def test_weather_defaults_to_celsius_and_knows_a_dozen_cities() -> None:
    assert tools.get_weather.invoke({"city": "Shanghai"}) == "上海 (Shanghai): 12 °C, cloudy"
    assert tools.get_weather.invoke({"city": "深圳"}).startswith("深圳 (Shenzhen): ")
    assert len(tools.weather.KNOWN_CITIES) >= 12


def test_weather_unknown_city_lists_the_known_ones() -> None:
    with pytest.raises(ToolException, match=r"Unknown city 'Paris'\. Ask for one of: 北京"):
        tools.get_weather.invoke({"city": "Paris"})


def test_weather_unit_is_validated_by_the_schema() -> None:
    with pytest.raises(ValueError, match="celsius"):
        tools.get_weather.invoke({"city": "北京", "unit": "kelvin"})


# --- calculator ----------------------------------------------------------------------------


def test_add_is_the_seeds_add() -> None:
    assert tools.add.invoke({"x": 6, "y": 5}) == 11


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("6 + 5", "11"),
        ("(6 + 5) * 2", "22"),
        ("7 / 2", "3.5"),
        ("7 // 2", "3"),
        ("-7 % 3", "2"),
        ("-3 ** 2", "-9"),
        ("2 ^ 10", "1024"),
        ("0.1 + 0.2", "0.3"),
        ("sqrt(16) + abs(-2)", "6"),
        ("max(3, 9, 4)", "9"),
        ("round(pi, 3)", "3.142"),
        ("2 ** -1", "0.5"),
        ("10 ** 300 // 10 ** 299", "10"),
    ],
)
def test_calculate(expression: str, expected: str) -> None:
    assert tools.calculate.invoke({"expression": expression}) == expected


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("1 / 0", "division by zero in 1 / 0"),
        ("sqrt(-1)", r"sqrt\(-1\) failed: math domain error"),
        ("x + 1", "unknown name 'x'; the constants are pi, e, tau"),
        ("", "the expression is empty"),
        ("6 +", "is not a valid expression"),
        ("1 < 2", "Compare syntax is not allowed"),
        ("True + 1", "True is not a number"),
        ("exp(1000)", r"exp\(1000\) failed"),
        ("2.0 ** 10000", "too large for a float"),
    ],
)
def test_calculate_refuses_with_a_reason(expression: str, message: str) -> None:
    with pytest.raises(ToolException, match=f"Cannot calculate: .*{message}"):
        tools.calculate.invoke({"expression": expression})


# --- clock ---------------------------------------------------------------------------------


def test_current_time_in_a_timezone_is_now() -> None:
    before = dt.datetime.now(ZoneInfo("Asia/Shanghai")).replace(microsecond=0, tzinfo=None)
    result = tools.current_time.invoke({"timezone": "Asia/Shanghai"})
    after = dt.datetime.now(ZoneInfo("Asia/Shanghai")).replace(tzinfo=None)
    stamp = dt.datetime.strptime(result[:19], "%Y-%m-%d %H:%M:%S")
    assert before <= stamp <= after
    assert result.endswith("(Asia/Shanghai, UTC+08:00)")


@pytest.mark.parametrize("alias", ["北京", "beijing", "asia/shanghai"])
def test_current_time_accepts_common_names(alias: str) -> None:
    assert "(Asia/Shanghai, UTC+08:00)" in tools.current_time.invoke({"timezone": alias})


def test_current_time_defaults_to_utc() -> None:
    assert tools.current_time.invoke({}).endswith("(UTC, UTC+00:00)")


def test_current_time_bad_timezone_suggests_close_names() -> None:
    with pytest.raises(
        ToolException, match=r"Unknown timezone 'Asia/Shangai'.*Did you mean Asia/Shanghai"
    ):
        tools.current_time.invoke({"timezone": "Asia/Shangai"})
    with pytest.raises(ToolException, match="Use an IANA name such as 'UTC'"):
        tools.current_time.invoke({"timezone": "../../etc/passwd"})


def test_date_arithmetic() -> None:
    assert tools.add_days.invoke({"date": "2024-05-10", "days": 7}) == "2024-05-17 (Friday)"
    assert tools.add_days.invoke({"date": "2024-03-01", "days": -1}) == "2024-02-29 (Thursday)"
    assert tools.days_between.invoke({"start": "2024-01-01", "end": "2024-12-25"}) == 359
    assert tools.days_between.invoke({"start": "2024-12-25", "end": "2024-01-01"}) == -359


def test_date_arithmetic_refusals() -> None:
    with pytest.raises(ToolException, match="'2024-13-01' is not a date; write it as YYYY-MM-DD"):
        tools.add_days.invoke({"date": "2024-13-01", "days": 1})
    with pytest.raises(ToolException, match=r"falls outside the calendar \(years 1 to 9999\)"):
        tools.add_days.invoke({"date": "9999-12-31", "days": 1})
    with pytest.raises(ToolException, match="too far"):
        tools.add_days.invoke({"date": "2024-01-01", "days": 10**12})


# --- units ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "source", "target", "expected"),
    [
        (6, "celsius", "fahrenheit", "6 °C = 42.8 °F"),
        (41, "°F", "°C", "41 °F = 5 °C"),
        (0, "K", "C", "0 K = -273.15 °C"),
        (10, "km", "miles", "10 km = 6.213712 mi"),
        (50, "lb", "kg", "50 lb = 22.679619 kg"),
        (1, "斤", "克", "1 jin = 500 g"),
        (3, "hours", "minutes", "3 h = 180 min"),
        (100, "km/h", "m/s", "100 km/h = 27.777778 m/s"),
        (1, "GB", "MiB", "1 GB = 953.674316 MiB"),
        (2, "L", "ml", "2 L = 2000 mL"),
    ],
)
def test_convert_units(value: float, source: str, target: str, expected: str) -> None:
    result = tools.convert_units.invoke({"value": value, "from_unit": source, "to_unit": target})
    assert result == expected


def test_convert_units_refusals() -> None:
    with pytest.raises(ToolException, match=r"Cannot convert length \(km\) to mass \(kg\)"):
        tools.convert_units.invoke({"value": 1, "from_unit": "km", "to_unit": "kg"})
    with pytest.raises(ToolException, match=r"Unknown unit 'parsec'\. Known units — length: m, km"):
        tools.convert_units.invoke({"value": 1, "from_unit": "parsec", "to_unit": "m"})
    with pytest.raises(ToolException, match="below absolute zero"):
        tools.convert_units.invoke({"value": -300, "from_unit": "C", "to_unit": "K"})
    with pytest.raises(ToolException, match="not a finite number"):
        tools.convert_units.invoke({"value": float("inf"), "from_unit": "m", "to_unit": "km"})


# --- files ---------------------------------------------------------------------------------


def test_search_files_lists_the_sample_folder() -> None:
    everything = tools.search_files.invoke({"pattern": "*"})
    assert everything.startswith("6 file(s) match '*':")
    assert "notes/todo.txt (" in everything
    markdown = tools.search_files.invoke({"pattern": "*.md"}).splitlines()
    assert markdown[0] == "4 file(s) match '*.md':"
    assert [line.split(" (")[0] for line in markdown[1:]] == [
        "README.md",
        "notes/meeting-2024-05-10.md",
        "recipes/dumplings.md",
        "recipes/pancakes.md",
    ]
    assert tools.search_files.invoke({"pattern": "notes/*"}).startswith("2 file(s)")
    assert tools.search_files.invoke({"pattern": "*.pdf"}).startswith("No file matches '*.pdf'")


def test_read_file_returns_the_text() -> None:
    expected = (DEFAULT_ROOT / "recipes" / "dumplings.md").read_text(encoding="utf-8")
    assert tools.read_file.invoke({"path": "recipes/dumplings.md"}) == expected
    assert tools.read_file.invoke({"path": "./notes/todo.txt"}).startswith("- buy train tickets")


def test_read_file_missing_and_directory() -> None:
    with pytest.raises(
        ToolException, match=r"No file 'nope\.txt' in the sandbox; call search_files"
    ):
        tools.read_file.invoke({"path": "nope.txt"})
    with pytest.raises(ToolException, match="'notes' is not a regular file"):
        tools.read_file.invoke({"path": "notes"})


def test_make_file_tools_uses_another_root(tmp_path) -> None:
    (tmp_path / "a.txt").write_text("alpha", encoding="utf-8")
    search, read = tools.make_file_tools(tmp_path)
    assert convert_to_openai_tool(search) == convert_to_openai_tool(tools.search_files)
    assert convert_to_openai_tool(read) == convert_to_openai_tool(tools.read_file)
    assert read.invoke({"path": "a.txt"}) == "alpha"
    assert search.invoke({"pattern": "*"}) == "1 file(s) match '*':\na.txt (5 bytes)"
    assert tools.read_file.invoke({"path": "README.md"}).startswith("# Sample files")
    with pytest.raises(NotADirectoryError, match="is not an existing directory"):
        tools.make_file_tools(tmp_path / "missing")


def test_read_file_size_limit_and_encoding(tmp_path) -> None:
    (tmp_path / "big.txt").write_text("x" * (tools.files.MAX_READ_BYTES + 1), encoding="utf-8")
    (tmp_path / "latin.txt").write_bytes("café".encode("latin-1"))
    (tmp_path / "blob.bin").write_bytes(b"\x89PNG\x00\x00")
    _, read = tools.make_file_tools(tmp_path)
    with pytest.raises(ToolException, match="larger than 64000 bytes"):
        read.invoke({"path": "big.txt"})
    with pytest.raises(ToolException, match="is not UTF-8 text"):
        read.invoke({"path": "latin.txt"})
    with pytest.raises(ToolException, match="is a binary file"):
        read.invoke({"path": "blob.bin"})


# --- database ------------------------------------------------------------------------------


def _dump(path) -> list[str]:
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def test_shipped_database_matches_its_script(tmp_path) -> None:
    fresh = tmp_path / "shop.db"
    build_database(DEFAULT_SCRIPT, fresh)
    assert _dump(fresh) == _dump(DEFAULT_DATABASE)


def test_query_database_answers_a_select() -> None:
    result = tools.query_database.invoke(
        {"sql": "SELECT city, count(*) AS n FROM customers GROUP BY city ORDER BY n DESC, city"}
    )
    lines = result.splitlines()
    assert lines[0] == "city | n"
    assert lines[1:3] == ["上海 | 2", "北京 | 2"]
    assert lines[-1] == "(8 rows)"


def test_query_database_joins_and_limits_rows() -> None:
    total = tools.query_database.invoke(
        {
            "sql": "SELECT round(sum(o.quantity * p.price), 2) AS revenue FROM orders o "
            "JOIN products p ON p.id = o.product_id"
        }
    )
    connection = sqlite3.connect(DEFAULT_DATABASE)
    (expected,) = connection.execute(
        "SELECT round(sum(o.quantity * p.price), 2) FROM orders o JOIN products p "
        "ON p.id = o.product_id"
    ).fetchone()
    connection.close()
    assert total.splitlines() == ["revenue", str(expected), "(1 row)"]
    many = tools.query_database.invoke(
        {
            "sql": "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 80) "
            "SELECT n FROM r"
        }
    ).splitlines()
    assert len(many) == 1 + tools.database.MAX_ROWS + 1
    assert many[-1].startswith("(first 50 rows shown; more exist")


def test_query_database_sql_error_says_what_to_do() -> None:
    with pytest.raises(ToolException, match=r"no such table: nope\. Call describe_database"):
        tools.query_database.invoke({"sql": "SELECT * FROM nope"})


def test_describe_database_and_docstring_agree() -> None:
    schema = tools.describe_database.invoke({})
    assert "CREATE TABLE orders (" in schema
    assert "-- 40 rows" in schema
    description = tools.query_database.description
    for item in table_summary(DEFAULT_DATABASE).split("), "):
        assert item.rstrip(")").split("(")[1] in description


def test_make_database_tools_over_another_file(tmp_path) -> None:
    path = tmp_path / "pets.db"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE pets (name TEXT, kind TEXT); INSERT INTO pets VALUES ('Mimi', 'cat');"
    )
    connection.close()
    query, describe = tools.make_database_tools(path)
    assert query.name == "query_database"
    assert "Tables: pets(name, kind)." in query.description
    assert query.invoke({"sql": "SELECT * FROM pets"}) == "name | kind\nMimi | cat\n(1 row)"
    assert "CREATE TABLE pets" in describe.invoke({})
    with pytest.raises(FileNotFoundError):
        tools.make_database_tools(tmp_path / "missing.db")


def test_lookup_tools_answer_in_either_language_and_refuse_what_they_do_not_know() -> None:
    assert tools.get_price.invoke({"item": "Apples"}) == "苹果 (apple): 8 yuan per kg"
    assert tools.get_price.invoke({"item": "牛奶"}) == "牛奶 (milk): 12 yuan per litre"
    assert tools.get_capital.invoke({"country": "france"}) == "法国 (France): 巴黎 (Paris)"
    assert tools.get_population.invoke({"city": "上海市"}) == "上海 (Shanghai): 24.9 million people"
    assert tools.get_population.invoke({"city": "巴黎"}).endswith("2.1 million people")
    for tool, argument in [
        (tools.get_price, {"item": "榴莲"}),
        (tools.get_capital, {"country": "Atlantis"}),
        (tools.get_population, {"city": "Gotham"}),
    ]:
        with pytest.raises(ToolException, match="Ask for one of"):
            tool.func(**argument)


def test_subtract_and_multiply_keep_whole_numbers_whole() -> None:
    assert tools.subtract.invoke({"x": 23, "y": -15}) == 38
    assert tools.multiply.invoke({"x": 8, "y": 3}) == 24
    assert tools.multiply.invoke({"x": 2.5, "y": 0.1}) == 0.25
    assert tools.subtract.invoke({"x": 1, "y": 0.1}) == 0.9
