"""Berkeley Function Calling Leaderboard (BFCL) cases, converted to OpenAI tools.

The data comes from the ``bfcl-eval`` package, installed without its dependencies (they pull
gigabytes of unrelated packages)::

    pip install --no-deps bfcl-eval==2026.3.23

Its ``bfcl_eval/data/`` holds one JSON object per line per category (``BFCL_v4_<category>.json``:
``id``, ``question`` as a list of turns of messages, ``function`` as a list of function docs) and
``possible_answer/`` the accepted calls. Nothing of the package is imported: only its files are
read.

BFCL writes function docs in its own dialect of JSON Schema. :func:`to_openai_tool` converts one
doc to an OpenAI tool:

* types: ``dict`` -> ``object``; ``float`` -> ``number``; ``tuple`` and ``list`` -> ``array``;
  ``any`` -> ``string`` (BFCL's own checker expects a string there); ``bool`` -> ``boolean``;
  ``int`` -> ``integer``; a property without a type becomes ``string``; an unknown type is an
  error naming the function and the parameter;
* ``properties``, ``items`` and ``additionalProperties`` are converted recursively;
  ``description``, ``enum``, ``default``, ``required``, ``format`` and numeric/length bounds are
  kept; BFCL's ``optional`` flag is dropped (optional means "not in ``required``");
* names: every character outside ``[A-Za-z0-9_-]`` becomes ``_`` (``math.factorial`` ->
  ``math_factorial``); each case keeps the map back to the original name for scoring.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.errors import ConfigError, ToolDefinitionError

__all__ = [
    "BFCL_INSTALL_COMMAND",
    "CATEGORIES",
    "DEFAULT_CATEGORIES",
    "BfclCase",
    "bfcl_data_dir",
    "category_of",
    "load_cases",
    "openai_tool_name",
    "to_openai_tool",
]

#: The command that installs the BFCL data (its dependencies are not needed and are huge).
BFCL_INSTALL_COMMAND = "pip install --no-deps bfcl-eval==2026.3.23"

#: Every supported category and how it is scored (see :mod:`toolkit.eval.bfcl_score`).
CATEGORIES: dict[str, str] = {
    "simple_python": "simple",
    "multiple": "multiple",
    "parallel": "parallel",
    "parallel_multiple": "parallel",
    "irrelevance": "irrelevance",
    "live_simple": "simple",
    "live_multiple": "multiple",
    "live_parallel": "parallel",
    "live_parallel_multiple": "parallel",
    "live_irrelevance": "irrelevance",
    "live_relevance": "relevance",
}

#: The categories run when none are named.
DEFAULT_CATEGORIES: tuple[str, ...] = (
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
    "live_multiple",
)

_TYPES: dict[str, str] = {
    "string": "string",
    "str": "string",
    "any": "string",
    "integer": "integer",
    "int": "integer",
    "float": "number",
    "number": "number",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "tuple": "array",
    "dict": "object",
    "object": "object",
}
_KEPT_KEYS = (
    "description",
    "enum",
    "default",
    "format",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
)
_BAD_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class BfclCase:
    """One BFCL case, ready to send to a chat model.

    Attributes:
        id: The BFCL id, e.g. ``simple_python_0``.
        category: The BFCL category, a key of :data:`CATEGORIES`.
        messages: The first turn's messages as OpenAI-style dicts (``role``, ``content``).
        functions: The original BFCL function docs (what the scorer checks against).
        tools: The same functions as OpenAI tools.
        names: Tool name as sent to the model -> original BFCL function name.
        answer: The accepted calls, each ``{function: {param: [acceptable values]}}``;
            empty for the irrelevance and relevance categories.
    """

    id: str
    category: str
    messages: list[dict[str, Any]]
    functions: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    names: dict[str, str]
    answer: list[dict[str, dict[str, list[Any]]]] = field(default_factory=list)

    @property
    def kind(self) -> str:
        """How the case is scored: simple, multiple, parallel, irrelevance or relevance."""
        return CATEGORIES[self.category]


def openai_tool_name(name: str) -> str:
    """Turn a BFCL function name into a valid OpenAI tool name.

    Args:
        name: The BFCL name, e.g. ``math.factorial``.

    Returns:
        The name with every character outside ``[A-Za-z0-9_-]`` replaced by ``_``.
    """
    return _BAD_NAME_CHARS.sub("_", name)


def _convert_schema(schema: Mapping[str, Any], where: str, problems: list[str]) -> dict[str, Any]:
    raw_type = schema.get("type", "string")
    json_type = _TYPES.get(raw_type) if isinstance(raw_type, str) else None
    if json_type is None:
        problems.append(
            f"{where}: type {raw_type!r} is not one of BFCL's Python types ({', '.join(_TYPES)})."
        )
        json_type = "string"
    out: dict[str, Any] = {"type": json_type}
    out.update({key: schema[key] for key in _KEPT_KEYS if key in schema})
    if isinstance(schema.get("properties"), Mapping):
        out["properties"] = {
            name: _convert_schema(sub, f"{where}.{name}", problems)
            for name, sub in schema["properties"].items()
        }
    if isinstance(schema.get("required"), list):
        out["required"] = list(schema["required"])
    if isinstance(schema.get("items"), Mapping):
        out["items"] = _convert_schema(schema["items"], f"{where}[]", problems)
    extra = schema.get("additionalProperties")
    if isinstance(extra, Mapping):
        out["additionalProperties"] = _convert_schema(extra, f"{where}{{}}", problems)
    elif isinstance(extra, bool):
        out["additionalProperties"] = extra
    return out


def to_openai_tool(function: Mapping[str, Any]) -> dict[str, Any]:
    """Convert one BFCL function doc to an OpenAI tool dict.

    Args:
        function: The BFCL doc: ``name``, ``description``, ``parameters`` (BFCL dialect).

    Returns:
        ``{"type": "function", "function": {"name", "description", "parameters"}}``.

    Raises:
        ToolDefinitionError: A parameter uses a type outside BFCL's Python dialect.
    """
    name = str(function.get("name", ""))
    problems: list[str] = []
    params = function.get("parameters") or {}
    properties = params.get("properties") or {}
    converted = {key: _convert_schema(sub, key, problems) for key, sub in properties.items()}
    if problems:
        raise ToolDefinitionError(name, problems)
    parameters: dict[str, Any] = {"type": "object", "properties": converted}
    parameters["required"] = list(params.get("required") or [])
    return {
        "type": "function",
        "function": {
            "name": openai_tool_name(name),
            "description": str(function.get("description", "")),
            "parameters": parameters,
        },
    }


def bfcl_data_dir() -> Path:
    """Locate ``bfcl_eval/data`` in the installed ``bfcl-eval`` package without importing it.

    Returns:
        The data directory.

    Raises:
        ConfigError: The package is not installed (the message gives the install command).
    """
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            f"the BFCL data is not installed; run `{BFCL_INSTALL_COMMAND}` "
            "(--no-deps matters: its dependencies are gigabytes the toolkit does not need)."
        )
    data = Path(next(iter(spec.submodule_search_locations))) / "data"
    if not data.is_dir():
        raise ConfigError(f"{data} is missing; reinstall with `{BFCL_INSTALL_COMMAND}`.")
    return data


def category_of(case_id: str) -> str:
    """Return the category a BFCL id belongs to (the longest category prefix wins).

    Args:
        case_id: A BFCL id such as ``parallel_multiple_3`` or ``live_simple_0-0-0``.

    Returns:
        The category.

    Raises:
        ConfigError: No supported category matches the id.
    """
    matches = [name for name in CATEGORIES if re.fullmatch(rf"{name}_\d[\w-]*", case_id)]
    if not matches:
        raise ConfigError(
            f"{case_id!r} is not the id of a case in a supported category "
            f"({', '.join(CATEGORIES)}); ids look like simple_python_0."
        )
    return max(matches, key=len)


def _category_file(data_dir: Path, category: str, sub: str = "") -> Path | None:
    """The newest ``BFCL_v<N>_<category>.json`` in ``data_dir`` (or its ``sub`` folder)."""
    pattern = re.compile(rf"BFCL_v(\d+)_{category}\.json")
    found = {}
    for path in (data_dir / sub if sub else data_dir).glob("BFCL_v*.json"):
        match = pattern.fullmatch(path.name)
        if match:
            found[int(match.group(1))] = path
    return found[max(found)] if found else None


def _read_lines(path: Path) -> Iterable[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ConfigError(f"{path}:{number} is not JSON ({exc.msg}).") from None


def _build_case(item: Mapping[str, Any], category: str, answer: list) -> BfclCase:
    functions = list(item["function"])
    tools = [to_openai_tool(function) for function in functions]
    names: dict[str, str] = {}
    for function, tool in zip(functions, tools, strict=True):
        sent = tool["function"]["name"]
        if sent in names and names[sent] != function["name"]:
            raise ToolDefinitionError(
                function["name"],
                [f"its tool name {sent!r} collides with {names[sent]!r} in case {item['id']}."],
            )
        names[sent] = function["name"]
    return BfclCase(
        id=str(item["id"]),
        category=category,
        messages=[dict(message) for message in item["question"][0]],
        functions=functions,
        tools=tools,
        names=names,
        answer=answer,
    )


def load_cases(
    categories: Sequence[str],
    *,
    limit: int | None = None,
    ids: Iterable[str] | None = None,
    data_dir: Path | None = None,
) -> list[BfclCase]:
    """Load BFCL cases in file order, category by category.

    Args:
        categories: Category names (keys of :data:`CATEGORIES`).
        limit: At most this many cases per category (after filtering by ``ids``).
        ids: Only these case ids; every id must exist in the chosen categories.
        data_dir: A directory laid out like ``bfcl_eval/data``; default the installed package.

    Returns:
        The cases.

    Raises:
        ConfigError: An unknown category, a missing file, or ids that match no case.
    """
    unknown = [name for name in categories if name not in CATEGORIES]
    if unknown:
        raise ConfigError(
            f"unknown BFCL categor{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)}; "
            f"choose from {', '.join(CATEGORIES)}."
        )
    if limit is not None and limit < 1:
        raise ConfigError(f"--limit {limit} must be at least 1.")
    data_dir = data_dir or bfcl_data_dir()
    wanted = set(ids) if ids is not None else None
    cases: list[BfclCase] = []
    seen: set[str] = set()
    for category in categories:
        path = _category_file(data_dir, category)
        if path is None:
            raise ConfigError(f"no BFCL_v*_{category}.json in {data_dir}.")
        answers: dict[str, list] = {}
        needs_answer = CATEGORIES[category] not in {"irrelevance", "relevance"}
        if needs_answer:
            answer_path = _category_file(data_dir, category, "possible_answer")
            if answer_path is None:
                raise ConfigError(f"no possible_answer/BFCL_v*_{category}.json in {data_dir}.")
            answers = {row["id"]: row["ground_truth"] for row in _read_lines(answer_path)}
        taken = 0
        for item in _read_lines(path):
            seen.add(item["id"])
            if wanted is not None and item["id"] not in wanted:
                continue
            if limit is not None and taken >= limit:
                continue
            if needs_answer and item["id"] not in answers:
                raise ConfigError(f"case {item['id']} has no possible answer in {data_dir}.")
            cases.append(_build_case(item, category, answers.get(item["id"], [])))
            taken += 1
    if wanted is not None:
        missing = sorted(wanted - seen)
        if missing:
            shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise ConfigError(
                f"{len(missing)} id(s) match no case in {', '.join(categories)}: {shown}."
            )
    return cases
