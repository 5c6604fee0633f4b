"""Which functions the linter takes for tools, by default, and what it says about the others."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from toolkit.lint import lint_paths, lint_source

#: A tool whose docstring documents `city` but not `unit`. Parsed as LangChain parses it, only
#: `unit` lacks a description (TK104); unparsed, `city` loses its description too (TK108).
LOOK = '''
def look(city: str, unit: str) -> str:
    """Look up the weather in a city.

    Args:
        city: The city, e.g. "Paris".
    """
    return city + unit
'''
PARSED = {"TK104"}
UNPARSED = {"TK104", "TK108"}

#: form -> (the code that makes `look` a tool, the codes expected for it).
FORMS: dict[str, tuple[str, set[str]]] = {
    "langchain @tool": ("from langchain_core.tools import tool\n\n@tool\n{look}", UNPARSED),
    "langchain @tool(parse_docstring=True)": (
        "from langchain_core.tools import tool\n\n@tool(parse_docstring=True)\n{look}",
        PARSED,
    ),
    "smolagents @tool": ("from smolagents import tool\n\n@tool\n{look}", PARSED),
    "crewai @tool('name')": (
        "from crewai.tools import tool\n\n@tool('Weather lookup')\n{look}",
        PARSED,
    ),
    "aliased foreign @tool": (
        "from llama_kit import tool as kit_tool\n\n@kit_tool\n{look}",
        PARSED,
    ),
    "pydantic-ai @agent.tool_plain": ("agent = Agent('m')\n\n@agent.tool_plain\n{look}", PARSED),
    "mcp @mcp.tool()": ("mcp = FastMCP('w')\n\n@mcp.tool()\n{look}", PARSED),
    "convert_to_openai_tool": ("{look}\nconvert_to_openai_tool(look)\n", PARSED),
    "convert_to_openai_function": ("{look}\nconvert_to_openai_function(look)\n", PARSED),
    "bind_tools": ("{look}\nmodel.bind_tools([look])\n", PARSED),
    "StructuredTool.from_function": (
        "from langchain_core.tools import StructuredTool\n{look}\n"
        "weather = StructuredTool.from_function(look)\n",
        UNPARSED,
    ),
    "tool(f)": ("from langchain_core.tools import tool\n{look}\nweather = tool(look)\n", UNPARSED),
    "tool(...)(f)": (
        "from langchain_core.tools import tool\n{look}\n"
        "weather = tool(parse_docstring=True)(look)\n",
        PARSED,
    ),
    "create_agent(tools=[...])": ("{look}\nagent = create_agent(model, tools=[look])\n", UNPARSED),
    "ToolNode([...])": ("{look}\nnode = ToolNode([look])\n", UNPARSED),
    "module-level list": ("{look}\nTOOLS = [look]\n", PARSED),
    "module-level tuple": ("{look}\nMY_TOOLS = (look,)\n", PARSED),
}

#: Added to every form: a public function nothing makes a tool, so it must stay unlinted.
HELPER = "\n\ndef helper(x):\n    return x\n"


@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_form_makes_a_tool_and_nothing_else(form: str, tmp_path: Path) -> None:
    template, expected = FORMS[form]
    source = template.format(look=textwrap.dedent(LOOK)) + HELPER
    found = lint_source(source, "m.py")
    assert {f.code for f in found} == expected, found
    assert {f.tool for f in found} == {"look"}
    path = tmp_path / "m.py"
    path.write_text(source)
    assert [n.function for n in lint_paths([str(path)]).not_linted] == ["helper"]


def test_a_foreign_tool_method_hides_self_and_is_linted(tmp_path: Path) -> None:
    source = textwrap.dedent(
        '''
        from strands import tool


        class Weather:
            @tool
            def forecast(self, city: str, days: int) -> str:
                """Forecast the weather for a city.

                Args:
                    city: The city, e.g. "Paris".
                """
                return city
        '''
    )
    assert [(f.code, f.line, f.tool) for f in lint_source(source)] == [("TK104", 7, "forecast")]


def test_framework_filled_parameters_are_not_shown() -> None:
    source = textwrap.dedent(
        '''
        from strands import tool

        agent = Agent("m")


        @tool
        def remember(fact: str, agent: object = None) -> str:
            """Remember a fact for later turns.

            Args:
                fact: The fact, in one sentence.
            """
            return fact


        @agent.tool
        def greet(ctx: RunContext[str], name: str) -> str:
            """Greet someone by name.

            Args:
                name: Their first name.
            """
            return name
        '''
    )
    assert lint_source(source) == []


def test_a_foreign_tool_keeps_the_function_name_and_its_given_description() -> None:
    source = textwrap.dedent(
        '''
        from crewai.tools import tool


        @tool("Weather lookup!", description="Look up the weather in a city.")
        def look(city: str) -> str:
            """Args:
                city: The city, e.g. "Paris".
            """
            return city
        '''
    )
    assert lint_source(source) == []


def test_only_langchains_tool_needs_parse_docstring() -> None:
    body = textwrap.dedent(LOOK).replace("unit: str", "unit: str = 'C'")
    body = body.replace('"Paris".', '"Paris".\n        unit: C or F.')
    langchain = lint_source("from langchain_core.tools import tool\n\n@tool\n" + body)
    assert [f.code for f in langchain] == ["TK108"]
    assert lint_source("from smolagents import tool\n\n@tool\n" + body) == []


def test_a_file_in_a_directory_keeps_its_functions_unlinted_but_counted(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text(textwrap.dedent(LOOK) + HELPER)
    report = lint_paths([str(tmp_path)])
    assert report.findings == []
    assert sorted(n.function for n in report.not_linted) == ["helper", "look"]
    named = lint_paths([str(tmp_path / "helpers.py")])
    assert {f.tool for f in named.findings} == {"look", "helper"}
    assert named.not_linted == []
    everything = lint_paths([str(tmp_path)], all_functions=True)
    assert everything.not_linted == [] and {f.tool for f in everything.findings} == {
        "look",
        "helper",
    }
