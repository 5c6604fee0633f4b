"""Example tools, one topic a module, each a LangChain ``@tool(parse_docstring=True)``.

``ALL_TOOLS`` lists every tool in a stable order. The tools are offline and deterministic
(except the clock). When a tool cannot do what it was asked — an unknown city, a refused
expression, a path outside the sandbox, a write to the database — it raises
:class:`~langchain_core.tools.ToolException` with a message that says what to send instead;
the tool loop turns that into an error ``ToolMessage`` (``status="error"``) for the model.
"""

from __future__ import annotations

from langchain_core.tools import BaseTool

from tools.calculator import add, calculate, multiply, subtract
from tools.clock import add_days, current_time, days_between
from tools.database import describe_database, make_database_tools, query_database
from tools.files import make_file_tools, read_file, search_files
from tools.geo import get_capital, get_population
from tools.market import get_price
from tools.units import convert_units
from tools.weather import get_weather

__all__ = [
    "ALL_TOOLS",
    "SEED_TOOLS",
    "add",
    "add_days",
    "calculate",
    "convert_units",
    "current_time",
    "days_between",
    "describe_database",
    "get_capital",
    "get_population",
    "get_price",
    "get_weather",
    "make_database_tools",
    "make_file_tools",
    "multiply",
    "query_database",
    "read_file",
    "search_files",
    "subtract",
]

#: Every example tool, in a stable order.
ALL_TOOLS: list[BaseTool] = [
    get_weather,
    add,
    subtract,
    multiply,
    calculate,
    current_time,
    add_days,
    days_between,
    convert_units,
    search_files,
    read_file,
    query_database,
    describe_database,
    get_price,
    get_capital,
    get_population,
]

#: The two tools of the seed's example (listing 7.11): what ``toolkit demo`` binds.
SEED_TOOLS: list[BaseTool] = [add, get_weather]
