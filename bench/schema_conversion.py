"""Converting 1,000 tools to OpenAI tool schemas: the toolkit's paths against LangChain's.

A module of 1,000 distinct functions is generated (one to five typed parameters drawn from
``int``, ``float``, ``str``, ``bool``, lists, dicts, ``Literal`` and ``Optional`` with defaults,
each described in a Google-style docstring), written to a temporary file, imported, and every
function wrapped with LangChain's ``@tool(parse_docstring=True)``. Measured side by side in one
run, the contenders taking turns (median of ``repeats`` rounds, after one untimed round that
also checks that they produce the same schemas):

1. **Schema of a built tool**: :func:`toolkit.schema.tool_schema` (what ``toolkit schema`` and
   ``toolkit serve`` use) against LangChain's ``convert_to_openai_tool`` on the same 1,000
   ``@tool`` objects. Goal: <= 1.10x LangChain (the toolkit checks the object, then converts).
2. **From a plain function**: ``toolkit.bare.tool`` (no LangChain: pydantic model, docstring
   parsed, ``$ref`` inlined) against LangChain's ``@tool(parse_docstring=True)`` followed by
   ``convert_to_openai_tool``. Information only.
3. **Static lint**: ``toolkit lint`` on the generated file (:func:`toolkit.lint.lint_paths`,
   which parses the source and replays LangChain's docstring rules without importing it)
   against LangChain's conversion of the same tools. Information only.

Figures are milliseconds per 1,000 tools. Run: ``python bench/schema_conversion.py [repeats]``
(default 5).
"""

from __future__ import annotations

import gc
import importlib.util
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from langchain_core.tools import BaseTool, tool
from langchain_core.utils.function_calling import convert_to_openai_tool

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import Result, print_table, rotations
from toolkit.bare import tool as bare_tool
from toolkit.lint import lint_paths
from toolkit.schema import tool_schema

__all__ = ["TOOLS", "generate_source", "main", "measure"]

TOOLS = 1000
#: The unit of every figure.
_UNIT = "ms/1,000 tools"

#: (annotation, description, default source or None) of the parameter kinds drawn from.
_KINDS: list[tuple[str, str, str | None]] = [
    ("int", "a whole number of items", "3"),
    ("float", "a ratio between 0 and 1", "0.5"),
    ("str", "a short label", '"main"'),
    ("bool", "whether to include archived entries", "False"),
    ("list[int]", "the identifiers to look at", None),
    ("list[str]", "the tags to match", None),
    ("dict[str, float]", "weights by name", None),
    ('Literal["asc", "desc"]', "the sort order", '"asc"'),
    ("Optional[str]", "an optional note", "None"),
    ("Optional[int]", "an optional upper limit", "None"),
]
_WORDS = ["count", "ratio", "label", "flag", "ids", "tags", "weights", "order", "note", "limit"]
_VERBS = ["Fetch", "Count", "Rank", "Filter", "Sum", "List", "Check", "Merge", "Split", "Score"]
_NOUNS = ["orders", "invoices", "users", "cities", "flights", "books", "songs", "tickets"]


def _function_source(index: int) -> str:
    count = 1 + index % 5
    kinds = [_KINDS[(index * 7 + j * 3) % len(_KINDS)] for j in range(count)]
    names = [f"{_WORDS[(index * 7 + j * 3) % len(_WORDS)]}_{j}" for j in range(count)]
    # Parameters with defaults come last; every other function gives its last one a default.
    params, docs = [], []
    for j, ((annotation, description, default), name) in enumerate(zip(kinds, names, strict=True)):
        last_with_default = default is not None and j == count - 1 and index % 2 == 0
        params.append(f"{name}: {annotation}" + (f" = {default}" if last_with_default else ""))
        docs.append(f"        {name}: The {description} for call {index}.")
    verb, noun = _VERBS[index % len(_VERBS)], _NOUNS[index % len(_NOUNS)]
    return "\n".join(
        [
            "",
            "",
            "@tool(parse_docstring=True)",
            f"def tool_{index:04d}({', '.join(params)}) -> str:",
            f'    """{verb} the {noun} of batch {index} and return a one-line summary.',
            "",
            "    Args:",
            *docs,
            "",
            "    Returns:",
            "        A one-line summary.",
            '    """',
            f'    return "{verb.lower()} {noun}"',
        ]
    )


def generate_source(count: int = TOOLS) -> str:
    """Source text of a module with ``count`` distinct ``@tool(parse_docstring=True)`` tools.

    Args:
        count: How many tools (named ``tool_0000``, ``tool_0001``...).

    Returns:
        The module's source.
    """
    header = [
        '"""Generated tools for the schema-conversion benchmark."""',
        "",
        "from typing import Literal, Optional",
        "",
        "from langchain_core.tools import tool",
    ]
    return "\n".join(header) + "".join(_function_source(i) for i in range(count)) + "\n"


def _import(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot import the generated module {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rounds(runs: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Median seconds of each contender; they take turns, in a rotating order."""
    samples: dict[str, list[float]] = {name: [] for name in runs}
    for name in rotations(list(runs), repeats):
        gc.collect()
        start = time.perf_counter()
        runs[name]()
        samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(times) for name, times in samples.items()}


def measure(repeats: int = 5, count: int = TOOLS) -> list[Result]:
    """Generate the tools, check the contenders agree, and time them.

    Args:
        repeats: Timed rounds per contender (the median counts).
        count: How many tools to generate.

    Returns:
        Three rows: built tools, plain functions, static lint; all in ms per 1,000 tools.

    Raises:
        RuntimeError: The contenders disagree (different schemas, or lint findings on the
            generated tools), so timing them would compare different work.
    """
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated_tools.py"
        path.write_text(generate_source(count), encoding="utf-8")
        module = _import(path)
        tools = [v for v in vars(module).values() if isinstance(v, BaseTool)]
        functions = [t.func for t in tools]
        if len(tools) != count:
            raise RuntimeError(f"generated {len(tools)} tools instead of {count}")
        langchain = [convert_to_openai_tool(t) for t in tools]
        if [tool_schema(t) for t in tools] != langchain:
            raise RuntimeError("tool_schema and convert_to_openai_tool disagree")
        bare = [bare_tool(f).description for f in functions]
        differing = sum(a != b for a, b in zip(bare, langchain, strict=True))
        findings = lint_paths([str(path)]).findings
        if findings:
            raise RuntimeError(f"the generated tools have lint findings: {findings[:3]}")
        timed = _rounds(
            {
                "convert": lambda: [convert_to_openai_tool(t) for t in tools],
                "tool_schema": lambda: [tool_schema(t) for t in tools],
                "langchain_from_function": lambda: [
                    convert_to_openai_tool(tool(parse_docstring=True)(f)) for f in functions
                ],
                "bare": lambda: [bare_tool(f).description for f in functions],
                "lint": lambda: lint_paths([str(path)]),
            },
            repeats,
        )
    per_thousand = {name: seconds * 1000 * 1000 / count for name, seconds in timed.items()}
    same = "same schemas" if not differing else f"{differing} schemas differ"
    name = "schema_conversion"
    return [
        Result(
            name,
            "built tools: tool_schema vs convert_to_openai_tool",
            _UNIT,
            per_thousand["tool_schema"],
            per_thousand["convert"],
            "<= 1.10x LangChain",
            per_thousand["tool_schema"] <= 1.10 * per_thousand["convert"],
        ),
        Result(
            name,
            f"plain functions: bare.tool vs @tool + convert ({same})",
            _UNIT,
            per_thousand["bare"],
            per_thousand["langchain_from_function"],
        ),
        Result(
            name,
            "static lint of the file vs convert_to_openai_tool",
            _UNIT,
            per_thousand["lint"],
            per_thousand["convert"],
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    """Print the measurements and the ratios side by side.

    Args:
        argv: ``[repeats]`` optionally; default 5.

    Returns:
        0 (the numbers are information, not a test).
    """
    args = sys.argv[1:] if argv is None else argv
    print_table(measure(int(args[0]) if args else 5))
    return 0


if __name__ == "__main__":
    sys.exit(main())
