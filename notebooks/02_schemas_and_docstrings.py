# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 02 · Schemas and docstrings: what the model is told about a tool
#
# **What this notebook teaches**
#
# 1. `convert_to_openai_tool` turns a plain function *or* a `@tool` object into the JSON tool
#    description that is sent to the model — it is what `bind_tools` calls.
# 2. The meaning of the description's fields: `type`, `properties`, `required`, `default`, `enum`.
# 3. Where the text comes from: the function's Google-style docstring and its type hints.
# 4. Every docstring pitfall, shown live: no blank line before `Args:`, a lowercase `args:`, a
#    documented argument without a type (raises), a missing type (gives `{}`), defaults that take
#    a parameter out of `required`, plain `@tool` ignoring `Args:` — and how `toolkit lint`
#    catches the mistakes before the model ever sees them.
#
# The model never sees your Python code. It sees only this JSON, rendered into its prompt
# (notebook 05 shows the prompt). A tool description is a piece of *prompt engineering*: the
# clearer it is, the more likely the model calls the tool at the right time with the right
# arguments.

# %%
import json

from langchain_core.utils.function_calling import convert_to_openai_tool
from rich import print as rprint


def show(schema: dict) -> None:
    """Print a tool description as JSON, keeping Chinese text readable."""
    print(json.dumps(schema, ensure_ascii=False, indent=2))


# %% [markdown]
# ## 1. `convert_to_openai_tool` on a plain function
#
# A function does not need `@tool` to be used as a tool: `bind_tools` accepts plain functions too,
# and converts every tool with `convert_to_openai_tool`. So we can call it ourselves to see exactly
# what the model will be sent. First, a function with no docstring:

# %%
def get_weather(city: str):
    return f"{city}天气晴朗"


show(convert_to_openai_tool(get_weather))

# %% [markdown]
# The name comes from the function, the parameter and its type from the signature — and the
# `description` is empty. The model has to guess what this tool is for.
#
# The fields:
#
# * `type: "function"` — the kind of tool; always `"function"` today.
# * `function.name` — the name the model uses in its call; keep it equal to your function's name.
# * `function.description` — what the tool does, in words. The model leans on it most when it
#   decides *whether* to call the tool.
# * `function.parameters` — a JSON Schema of the arguments:
#   * `type: "object"` — the arguments are one JSON object;
#   * `properties` — each argument's name, JSON type (`string`, `number`, `integer`, `boolean`,
#     `object`, `array`, `null`) and description;
#   * `required` — the arguments the model must always pass.

# %% [markdown]
# ## 2. The docstring becomes the description
#
# `convert_to_openai_tool` reads the docstring (the text between triple quotes right under `def`):

# %%
def get_weather(city: str):
    """天气查询工具"""
    return f"{city}天气晴朗"


show(convert_to_openai_tool(get_weather))

# %% [markdown]
# ## 3. Google-style docstrings describe the arguments
#
# Argument descriptions come from an `Args:` section written in the Google style: a summary, a
# blank line, then `Args:` with one `name: description` line per argument, indented. `Returns:`
# and `Raises:` sections may follow (after a blank line) and are not sent to the model.

# %%
def get_weather(city: str):
    """查询城市天气

    Args:
        city: 具体的城市

    Returns:
        返回城市的天气
    """
    return f"{city}天气晴朗"


show(convert_to_openai_tool(get_weather))

# %% [markdown]
# Now `city` has a description. A vague description is almost as bad as none — compare
# `"做一些事情"` ("does something") with a summary that says what is searched, where, and what comes
# back. The model reads these words, nothing else.

# %% [markdown]
# ## 4. `type`, `required`, `default` and `enum` together
#
# The seed's reference description (listing 7.3) has a required `city` and an optional `unit` that
# may only be `"celsius"` or `"fahrenheit"`. All of it comes from ordinary Python:
#
# * a type hint gives the JSON `type` (`str` → `string`, `int` → `integer`, `float` → `number`,
#   `bool` → `boolean`, `list[str]` → `array` of `string` ...);
# * `Literal[...]` gives an `enum`: the only values allowed;
# * a default value gives `default` and keeps the parameter **out of** `required`.

# %%
from typing import Literal


def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius"):
    """获取某个城市当前的天气情况

    Args:
        city: 城市名称
        unit: 温度单位
    """
    return f"{city}天气晴朗"


schema = convert_to_openai_tool(get_weather)
show(schema)

parameters = schema["function"]["parameters"]
print("required:        ", parameters["required"])
print("unit may be:     ", parameters["properties"]["unit"]["enum"])
print("unit defaults to:", parameters["properties"]["unit"]["default"])

# %% [markdown]
# `toolkit.schema.tool_schema` is the project's entry point for the same conversion (it accepts
# the same objects and raises a `ToolDefinitionError` naming the tool when LangChain cannot
# convert one), and `toolkit.render.schema_panel` draws it with a parameter table:

# %%
from toolkit.render import schema_panel
from toolkit.schema import tool_schema

print(tool_schema(get_weather) == schema)
rprint(schema_panel(tool_schema(get_weather)))

# %% [markdown]
# ## 5. Plain functions and `@tool` objects
#
# Why does a plain function work as a tool? `convert_to_openai_tool` has two branches: a
# `BaseTool` (what `@tool` makes) is formatted from the tool's own name, description and argument
# schema; any other callable is inspected — signature and docstring — to build that schema first.
#
# That difference matters. **Plain `@tool` does not parse `Args:`**: the whole docstring becomes
# the description and no argument gets one. `@tool(parse_docstring=True)` parses it like
# `convert_to_openai_tool` does for a plain function:

# %%
from langchain_core.tools import tool


@tool
def weather_plain_tool(city: str) -> str:
    """查询城市天气

    Args:
        city: 具体的城市
    """
    return f"{city}天气晴朗"


@tool(parse_docstring=True)
def weather_parsed_tool(city: str) -> str:
    """查询城市天气

    Args:
        city: 具体的城市
    """
    return f"{city}天气晴朗"


show(convert_to_openai_tool(weather_plain_tool))
show(convert_to_openai_tool(weather_parsed_tool))

# %% [markdown]
# `bind_tools` sends exactly this JSON. We can check it on the embedded model: binding does not
# call the model, it only stores the converted tools with the model (the first
# `load_chat_model()` in a process starts the local server, which takes a few seconds).

# %%
from toolkit.models import load_chat_model

model = load_chat_model(temperature=0)
bound = model.bind_tools([weather_parsed_tool, get_weather])
print(bound.kwargs["tools"][0] == convert_to_openai_tool(weather_parsed_tool))
print(bound.kwargs["tools"][1] == convert_to_openai_tool(get_weather))

# %% [markdown]
# And the model uses what it is told. Asked for Fahrenheit, it picks the allowed `enum` value —
# the embedded server even constrains its output to the schema, so it cannot invent a unit:

# %%
response = bound.invoke("西安现在的气温是多少华氏度？")
for call in response.tool_calls:
    print(call["name"], call["args"])
if not response.tool_calls:
    print("answered in text:", response.content)

# %% [markdown]
# ## 6. The pitfalls, live
#
# Each of these mistakes is silent or surprising. We write each one as a separate function, see
# what the model would be sent, and at the end let `toolkit lint` find them all.
#
# ### Pitfall 1: no blank line before `Args:`
#
# Without the blank line, `Args:` is not a section: the argument text is folded into the tool
# description and `city` gets no description of its own.

# %%
def weather_no_blank_line(city: str):
    """查询城市天气
    Args:
        city: 具体的城市
    """
    return f"{city}天气晴朗"


show(convert_to_openai_tool(weather_no_blank_line))

# %% [markdown]
# With `@tool(parse_docstring=True)` the same docstring does not pass silently — it raises when
# the tool is built:

# %%
try:
    tool(parse_docstring=True)(weather_no_blank_line)
except ValueError as exc:
    print(f"ValueError: {exc}")

# %% [markdown]
# ### Pitfall 2: a lowercase `args:`
#
# Only `Args:` — capitalised, in English, followed by a colon — starts the section. `args:`
# (or `参数:`, `Arguments:`, `Parameters:`) is ordinary description text:

# %%
def weather_lowercase_args(city: str):
    """查询城市天气

    args:
        city: 具体的城市
    """
    return f"{city}天气晴朗"


show(convert_to_openai_tool(weather_lowercase_args))

# %% [markdown]
# ### Pitfall 3: a missing type annotation gives `{}`
#
# The JSON type comes from the type hint. Without one the model sees `{}` — "any value" — and
# gets no hint of what to send:

# %%
def weather_untyped(city):
    """天气查询工具"""
    return f"{city}天气晴朗"


show(convert_to_openai_tool(weather_untyped))

# %% [markdown]
# ### Pitfall 4: a documented argument without a type raises
#
# Worse: when that untyped argument *is* documented under `Args:`, LangChain matches docstring
# names only against annotated parameters — and raises:

# %%
def weather_untyped_documented(city):
    """天气查询工具

    Args:
        city: 城市名称
    """
    return f"{city}天气晴朗"


try:
    convert_to_openai_tool(weather_untyped_documented)
except ValueError as exc:
    print(f"ValueError: {exc}")

# %% [markdown]
# The project's `tool_schema` raises its own `ToolDefinitionError` instead, naming the tool and
# what to do:

# %%
from toolkit.errors import ToolDefinitionError

try:
    tool_schema(weather_untyped_documented)
except ToolDefinitionError as exc:
    print(f"ToolDefinitionError: {exc}")

# %% [markdown]
# ### Pitfall 5: defaults take parameters out of `required`
#
# A parameter without a default is listed in `required`. Give it a default and it gets a
# `default` field and leaves `required` — with a single parameter, `required` disappears
# altogether. That is right for a truly optional argument; it is a bug when the tool cannot work
# without it, because the model is then free to leave it out.

# %%
def weather_default_city(city: str = "北京"):
    """天气查询工具

    Args:
        city: 城市名称
    """
    return f"{city}天气晴朗"


def weather_default_and_date(dt: str, city: str = "北京"):
    """天气查询工具

    Args:
        dt: 日期
        city: 城市名称
    """
    return f"{city}天气晴朗"


show(convert_to_openai_tool(weather_default_city))
show(convert_to_openai_tool(weather_default_and_date))

# %% [markdown]
# A mutable default (`[]`, `{}`) is a classic Python trap in a tool as anywhere else: the same
# list is shared between calls. And a parameter whose name starts with `_` silently vanishes from
# the schema:

# %%
def weather_many_cities(cities: list[str] = [], _verbose: bool = False):
    """查询多个城市的天气

    Args:
        cities: 城市名称列表
        _verbose: 是否返回详细信息
    """
    return "，".join(f"{c}天气晴朗" for c in cities)


show(convert_to_openai_tool(weather_many_cities))

# %% [markdown]
# ## 7. `toolkit lint` catches them all
#
# `toolkit lint` reads source files **without importing them** (so a file that raises on import,
# like pitfall 4, is still checked), replays what LangChain does with each docstring and
# signature, and reports every problem with a rule code, `file:line`, what the model will see
# instead, and the fix.
#
# We gather the source of the functions above into one file. `lint_source` is the linter as a
# function; the findings are drawn with `toolkit.render.render_findings`. By default the linter
# checks the functions that are used as tools (decorated with any `@tool`, passed to `bind_tools`
# / `convert_to_openai_tool`, or listed in a tools list) and, in a file that declares no tool at
# all, every public function. This file mixes `@tool` functions with loose ones, so
# `all_functions=True` (`--all-functions` on the command line) asks for every public function.

# %%
import inspect

from rich.console import Console

from toolkit.lint import lint_source
from toolkit.render import render_findings

pitfalls = [
    weather_no_blank_line,
    weather_lowercase_args,
    weather_untyped,
    weather_untyped_documented,
    weather_default_and_date,
    weather_many_cities,
    weather_plain_tool.func,
    weather_parsed_tool.func,
]
header = "from langchain_core.tools import tool\n\n\n"
source = header + "\n\n".join(inspect.getsource(f) for f in pitfalls)

findings = lint_source(source, "pitfalls.py", all_functions=True)
render_findings(findings, Console(), files=1)

# %% [markdown]
# One line per function: the rule codes it broke. The last one, with `parse_docstring=True` and a
# proper `Args:` section, is clean.

# %%
for function in pitfalls:
    codes = sorted(f.code for f in findings if f.tool == function.__name__)
    print(f"{function.__name__:28} {', '.join(codes) or 'clean'}")

# %% [markdown]
# The same from the command line, as you would run it on your own files (exit code 1 means
# errors were found). Here it runs as a subprocess on a temporary copy of that file:

# %%
import subprocess
import sys
import tempfile
from pathlib import Path

with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "pitfalls.py"
    path.write_text(source, encoding="utf-8")
    cli = subprocess.run(
        [sys.executable, "-m", "toolkit", "lint", "--all-functions", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
print(cli.stdout.replace(folder, "<tmp>"))
print("exit code:", cli.returncode)

# %% [markdown]
# The project's own example tools follow every rule, so the linter has nothing to say about them
# (the test suite checks this too):

# %%
clean = subprocess.run(
    [sys.executable, "-m", "toolkit", "lint", "tools"],
    capture_output=True,
    text=True,
    encoding="utf-8",
)
print(clean.stdout)
print("exit code:", clean.returncode)

# %% [markdown]
# ## Recap
#
# * `bind_tools` converts every tool with `convert_to_openai_tool`; call it yourself (or
#   `toolkit.schema.tool_schema`, or `toolkit schema` on the command line) to see what the model
#   is told.
# * `name` ← function name, `description` ← docstring summary, `properties` ← type hints,
#   argument descriptions ← the Google-style `Args:` section, `enum` ← `Literal[...]`,
#   `default` ← default values, `required` ← parameters without a default.
# * Pitfalls: no blank line before `Args:` and lowercase `args:` fold the arguments into the
#   description; a missing type gives `{}`; a documented untyped argument raises `ValueError`;
#   a default removes the parameter from `required`; plain `@tool` ignores `Args:` (use
#   `@tool(parse_docstring=True)`); `_names` vanish.
# * `toolkit lint FILE` finds all of them without importing your code.
#
# Next: **03 · bind_tools and the four steps** — the model decides, your code executes.
