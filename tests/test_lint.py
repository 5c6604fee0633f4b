"""The docstring linter: exact codes and lines per pitfall, checked against what LangChain does."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.tools import tool
from langchain_core.utils.function_calling import _parse_google_docstring

from toolkit.errors import TargetError, ToolDefinitionError
from toolkit.lint import RULES, lint_paths, lint_source, lint_tools
from toolkit.lint.docstrings import clean_docstring, header_kind, parse_docstring
from toolkit.schema import tool_schema
from toolkit.targets import load_targets

FIXTURES = Path(__file__).parent / "fixtures" / "lint"

#: file -> the exact (code, line, severity) findings expected.
EXPECTED: dict[str, set[tuple[str, int, str]]] = {
    "clean_tools.py": set(),
    "tk101_no_docstring.py": {("TK101", 7, "error")},
    "tk101_no_summary.py": {("TK101", 5, "error")},
    "tk102_no_blank_line.py": {("TK102", 9, "error")},
    "tk102_folded.py": {("TK102", 6, "error")},
    "tk102_whitespace_line.py": {("TK102", 7, "error")},
    "tk103_lowercase_args.py": {("TK103", 7, "error")},
    "tk103_headers.py": {
        ("TK103", 10, "error"),
        ("TK103", 20, "error"),
        ("TK103", 30, "error"),
        ("TK103", 40, "error"),
        ("TK103", 50, "error"),
    },
    "tk103_other_styles.py": {("TK103", 7, "error"), ("TK103", 16, "error")},
    "tk104_undocumented.py": {("TK104", 7, "error")},
    "tk104_no_args_section.py": {("TK104", 7, "error")},
    "tk105_not_in_signature.py": {("TK105", 12, "error")},
    "tk106_not_annotated_documented.py": {("TK106", 11, "error")},
    "tk107_not_annotated.py": {("TK104", 7, "error"), ("TK107", 7, "error")},
    "tk107_tool_method.py": {("TK107", 8, "error")},
    "tk108_no_parse_docstring.py": {("TK108", 6, "error")},
    "tk108_agent.py": {("TK108", 15, "error")},
    "tk109_underscore.py": {("TK109", 7, "error"), ("TK109", 7, "warning")},
    "tk110_returns_no_blank.py": {("TK110", 12, "error")},
    "tk111_type_no_space.py": {("TK111", 11, "error")},
    "tk112_blank_in_args.py": {("TK112", 13, "error")},
    "tk113_bad_names.py": {("TK113", 6, "error"), ("TK113", 27, "error")},
    "tk114_duplicates.py": {("TK114", 16, "error")},
    "tk115_vague.py": {("TK115", 8, "warning"), ("TK115", 11, "warning")},
    "tk116_mutable_default.py": {("TK116", 7, "warning")},
    "tk117_section_before_args.py": {("TK117", 10, "warning")},
    # A file named alone that declares no tool: its public functions are the tools.
    "plain_functions.py": {("TK106", 5, "error"), ("TK102", 9, "error")},
    "foreign_tools.py": {("TK104", 10, "error"), ("TK104", 23, "error"), ("TK105", 28, "error")},
}


def _lint(name: str) -> list:
    return lint_paths([str(FIXTURES / name)]).findings


def test_every_fixture_file_has_expectations() -> None:
    assert {p.name for p in FIXTURES.glob("*.py")} == set(EXPECTED)


def test_every_rule_is_exercised_by_a_fixture() -> None:
    exercised = {code for found in EXPECTED.values() for code, _, _ in found}
    assert exercised == set(RULES) - {"TK100"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_findings_have_exact_codes_and_lines(name: str) -> None:
    found = {(f.code, f.line, f.severity) for f in _lint(name)}
    assert found == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_findings_are_complete_sentences_with_a_fix(name: str) -> None:
    for finding in _lint(name):
        assert finding.path.endswith(name)
        assert finding.message.endswith(".") and finding.fix.endswith((".", "`"))
        assert finding.severity in ("error", "warning")


# --- What LangChain really does with each fixture ----------------------------------------------


def _outcome(name: str) -> tuple[str | None, list[dict]]:
    """Import the fixture and convert its tools: (the ValueError text raised, the schemas)."""
    try:
        objects = load_targets(str(FIXTURES / name))
    except TargetError as exc:
        return _value_error(str(exc)), []
    schemas = []
    for obj in objects:
        try:
            schemas.append(tool_schema(obj)["function"])
        except ToolDefinitionError as exc:
            return _value_error(str(exc)), schemas
    return None, schemas


def _value_error(text: str) -> str:
    match = re.search(r"ValueError: (.+?)( \(`toolkit lint |\n|$)", text)
    assert match, text
    return match.group(1)


def _claimed_raises(name: str) -> set[str]:
    return {
        m.group(1)
        for f in _lint(name)
        for m in re.finditer(r"raises ValueError\('(.+?)'\)", f.message)
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_claimed_exceptions_are_what_langchain_raises(name: str) -> None:
    raised, _ = _outcome(name)
    claimed = _claimed_raises(name)
    assert bool(raised) == bool(claimed), (raised, claimed)
    if raised:
        assert raised in claimed


def _attr(name: str, attribute: str) -> object:
    (obj,) = load_targets(f"{FIXTURES / name}:{attribute}")
    return obj


def _props(schema: dict) -> dict:
    return schema["parameters"]["properties"]


def _only(name: str) -> dict:
    raised, schemas = _outcome(name)
    assert raised is None
    assert len(schemas) >= 1
    return schemas[0]


def test_folded_args_reach_the_model_inside_the_description() -> None:
    for name in ("tk102_folded.py", "tk102_whitespace_line.py", "tk103_lowercase_args.py"):
        schema = _only(name)
        assert "city:" in schema["description"]
        assert "description" not in _props(schema)["city"]
        (finding,) = _lint(name)
        shown = re.search(r"the model sees '(.+?)(\.\.\.)?' and", finding.message).group(1)
        assert " ".join(schema["description"].split()).startswith(shown)


def test_misnamed_headers_leave_parameters_without_descriptions() -> None:
    raised, schemas = _outcome("tk103_headers.py")
    assert raised is None and len(schemas) == 5
    for schema in schemas:
        assert "description" not in _props(schema)["city"]
        assert "city: The city" in schema["description"]


def test_rest_and_numpy_docstrings_are_not_read() -> None:
    raised, schemas = _outcome("tk103_other_styles.py")
    assert raised is None
    assert all("description" not in _props(s)["city"] for s in schemas)


def test_empty_summary_gives_an_empty_description() -> None:
    assert _only("tk101_no_summary.py")["description"] == ""


def test_undocumented_parameter_has_no_description() -> None:
    props = _props(_only("tk104_undocumented.py"))
    assert "description" in props["city"] and "description" not in props["unit"]


def test_unannotated_parameter_gets_the_empty_schema() -> None:
    assert _props(_only("tk107_not_annotated.py"))["city"] == {}


def test_tool_on_a_method_exposes_self() -> None:
    schema = _only("tk107_tool_method.py")
    assert _props(schema)["self"] == {} and "self" in schema["parameters"]["required"]


def test_without_parse_docstring_the_whole_docstring_is_the_description() -> None:
    schema = _only("tk108_no_parse_docstring.py")
    assert "Args:" in schema["description"]
    assert "description" not in _props(schema)["city"]


def test_agent_tools_wrap_plain_functions_without_parsing() -> None:
    (wrapped,) = _attr("tk108_agent.py", "node").tools_by_name.values()
    schema = tool_schema(wrapped)["function"]
    assert "Args:" in schema["description"]
    assert "description" not in _props(schema)["city"]


def test_underscore_parameters_vanish() -> None:
    assert set(_props(_only("tk109_underscore.py"))) == {"city"}


def test_blank_line_inside_args_drops_the_rest() -> None:
    props = _props(_only("tk112_blank_in_args.py"))
    assert "description" in props["city"] and "description" not in props["unit"]


def test_invalid_names_pass_through_to_the_schema() -> None:
    raised, schemas = _outcome("tk113_bad_names.py")
    assert raised is None
    names = {s["name"] for s in schemas}
    assert {"get weather", "population/lookup"} <= names
    pattern = re.compile(r"[a-zA-Z0-9_-]{1,64}")
    assert not any(pattern.fullmatch(n) for n in names - {"get_weather", "lookup"})


def test_duplicate_names_both_reach_the_schema_list() -> None:
    raised, schemas = _outcome("tk114_duplicates.py")
    assert raised is None and [s["name"] for s in schemas] == ["get_weather", "get_weather"]


def test_section_before_args_is_folded_into_the_description() -> None:
    assert "Raises:" in _only("tk117_section_before_args.py")["description"]


def test_clean_fixture_imports_and_every_parameter_is_described() -> None:
    names = ["search_web", "convert_currency", "read_log", "fetch_page", "utc_now"]
    names += ["population", "get_population"]
    objects = [_attr("clean_tools.py", n) for n in names]
    objects.append(_attr("clean_tools.py", "Calendar")().add_event)
    for obj in objects:
        schema = tool_schema(obj)["function"]
        assert schema["description"]
        for prop in _props(schema).values():
            assert prop.get("description"), schema
    hidden = _props(tool_schema(objects[0])["function"])
    assert set(hidden) == {"query", "max_results"}


# --- Live objects ---------------------------------------------------------------------------


def test_lint_tools_on_live_objects() -> None:
    clean = [_attr("clean_tools.py", "search_web"), _attr("clean_tools.py", "get_population")]
    assert lint_tools(clean) == []
    (finding,) = lint_tools([_attr("tk108_no_parse_docstring.py", "get_weather")])
    assert (finding.code, finding.line) == ("TK108", 7)
    assert finding.path.endswith("tk108_no_parse_docstring.py")


def test_lint_tools_on_the_example_tools_is_clean() -> None:
    import tools

    assert tools.ALL_TOOLS
    assert lint_tools(tools.ALL_TOOLS) == []
    twice = lint_tools([tools.ALL_TOOLS[0], tools.ALL_TOOLS[0]])
    assert [f.code for f in twice] == ["TK114"]


def test_lint_tools_sees_how_a_live_tool_read_its_docstring(tmp_path: Path) -> None:
    path = tmp_path / "live.py"
    path.write_text(
        textwrap.dedent(
            '''
            from langchain_core.tools import tool


            @tool(description="Get the current weather for a city.")
            def weather(city: str) -> str:
                """Args:
                    city: The city, e.g. "Paris".
                """
                return city
            '''
        )
    )
    (live,) = load_targets(str(path))
    assert "description" not in tool_schema(live)["function"]["parameters"]["properties"]["city"]
    assert [(f.code, f.line) for f in lint_tools([live])] == [("TK108", 6)]


def test_lint_tools_reports_duplicate_and_invalid_names_without_source() -> None:
    first = tool(lambda city: city, description="Look up a city.")
    found = lint_tools([first])
    assert [f.code for f in found] == ["TK113"]  # the name of a lambda is "<lambda>"


# --- Source-level behaviour ------------------------------------------------------------------


def test_all_functions_option_lints_public_functions_only() -> None:
    source = textwrap.dedent(
        """
        from langchain_core.tools import tool


        @tool(parse_docstring=True)
        def listed(x: int) -> int:
            \"\"\"Return the number it is given.

            Args:
                x: Any whole number.
            \"\"\"
            return x


        def public(x: int) -> int:
            return x


        def _private(x):
            return x
        """
    )
    assert lint_source(source, "m.py") == []
    found = lint_source(source, "m.py", all_functions=True)
    assert [(f.code, f.tool) for f in found] == [("TK101", "public")]


def test_a_file_without_tools_has_its_public_functions_linted() -> None:
    source = "def public(x: int) -> int:\n    return x\n\n\ndef _private(x):\n    return x\n"
    assert [(f.code, f.tool) for f in lint_source(source, "m.py")] == [("TK101", "public")]


def test_aliased_and_dotted_decorators_are_found() -> None:
    source = textwrap.dedent(
        '''
        import langchain_core.tools
        from langchain_core.tools import tool as lc_tool


        @lc_tool
        def one(city: str) -> str:
            return city


        @langchain_core.tools.tool(parse_docstring=True)
        def two(city: str) -> str:
            """Look up a city.

            Args:
                city: The city, e.g. "Paris".
            """
            return city
        '''
    )
    found = lint_source(source)
    assert [(f.code, f.tool) for f in found] == [("TK101", "one")]


def test_tools_passed_through_a_list_variable_to_bind_tools() -> None:
    source = textwrap.dedent(
        '''
        def look(city):
            """Look."""
            return city


        def bind(model):
            my = [look]
            return model.bind_tools(my)
        '''
    )
    codes = sorted((f.code, f.line) for f in lint_source(source))
    assert codes == [("TK104", 2), ("TK107", 2), ("TK115", 3)]


def test_syntax_error_in_named_file_is_a_target_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def broken(:\n    pass\n")
    with pytest.raises(TargetError, match=r"bad\.py:1: syntax error"):
        lint_paths([str(bad)])


def test_syntax_error_inside_a_directory_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def broken(:\n    pass\n")
    (tmp_path / "good.py").write_text("x = 1\n")
    report = lint_paths([str(tmp_path)])
    assert report.files == 2
    assert [(f.code, f.line) for f in report.findings] == [("TK100", 1)]


def test_duplicates_across_files_of_a_package(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    body = '''from langchain_core.tools import tool


@tool(parse_docstring=True)
def lookup(city: str) -> str:
    """Look up facts about a city.

    Args:
        city: The city, e.g. "Paris".
    """
    return city
'''
    (package / "a.py").write_text(body)
    (package / "b.py").write_text(body)
    report = lint_paths([str(package)])
    assert [(f.code, Path(f.path).name, f.line) for f in report.findings] == [("TK114", "b.py", 5)]
    loose = tmp_path / "loose"
    package.rename(loose)
    (loose / "__init__.py").unlink()
    assert lint_paths([str(loose)]).findings == []


def test_module_name_target_is_resolved_without_importing(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "explodes.py").write_text(
        'raise RuntimeError("imported")\n\n\ndef f(x):\n    """Do."""\n\n\nTOOLS = [f]\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    report = lint_paths(["explodes"])
    assert report.files == 1 and {f.code for f in report.findings} == {"TK107", "TK104", "TK115"}


def test_unknown_module_name_is_a_target_error() -> None:
    with pytest.raises(TargetError, match="no_such_module_xyz"):
        lint_paths(["no_such_module_xyz"])


# --- The docstring replay equals LangChain's parser ------------------------------------------

_LINES = st.sampled_from(
    [
        "Args:",
        "args:",
        "Returns:",
        "Example:",
        "Raises:",
        "Summary of the tool.",
        "More text: with a colon",
        "    city: The city.",
        "    unit (str): The unit.",
        "    city(str): Bad.",
        "    : empty name",
        "        continued: line",
        "        continued line",
        "    plain indented text",
        "city: at column zero",
        "",
        "    ",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINES, min_size=1, max_size=12))
def test_replay_matches_langchain_parser(lines: list[str]) -> None:
    doc = "\n".join(lines)
    expected_description, expected_args = _parse_google_docstring(doc, [])
    parsed = parse_docstring(doc)
    assert parsed.description == expected_description
    assert parsed.descriptions == expected_args


def test_clean_docstring_reports_the_offset_of_the_first_line() -> None:
    text, offset = clean_docstring("\n\n    Summary.\n\n    Args:\n        x: y.\n    ")
    assert text == "Summary.\n\nArgs:\n    x: y."
    assert offset == 2


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Args:", "args"),
        ("args:", "args-bad"),
        ("Args :", "args-bad"),
        ("Arguments:", "args-bad"),
        ("Parameters:", "args-bad"),
        ("Agrs:", "args-bad"),
        ("Paramters:", "args-bad"),
        ("Returns:", "section"),
        ("Raises:", "section"),
        ("Keyword Args:", "section"),
        ("Example usage:", None),
        ("city: The city.", None),
    ],
)
def test_header_kinds(line: str, kind: str | None) -> None:
    assert header_kind(line) == kind


def test_tools_appended_to_a_list_are_found() -> None:
    source = textwrap.dedent(
        '''
        def look(city: str) -> str:
            """Look up a city."""
            return city


        tools = []
        tools.append(look)
        model.bind_tools(tools)
        '''
    )
    assert [(f.code, f.line) for f in lint_source(source)] == [("TK104", 2)]
