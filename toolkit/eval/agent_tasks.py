"""Agent tasks: a question, the tools to offer, and what a right final answer looks like.

A task file is JSON Lines (``.jsonl``, one task an object a line) or YAML (``.yaml``/``.yml``,
a list of tasks). Each task::

    {"id": "weather-sum-zh",                        # optional: the line number otherwise
     "question": "计算一下北京和西安的气温的总和",
     "tools": ["tools:get_weather", "tools:add"],   # module:name (a tool or a list of tools)
     "must": ["11"],                                 # regexes the answer must all match
     "must_not": ["摄氏度$"],                         # regexes it may not match
     "calls": [{"name": "add", "arguments": {"x": 6, "y": 5}}],   # optional, see below
     "system": "You are ...",                        # optional system message
     "max_steps": 8,                                 # optional model-call budget
     "kind": "sum", "language": "zh"}                # optional labels for the report

``calls`` lists calls the run must have made (each matched by name and by the arguments it
gives, numbers compared as numbers, text case-insensitively); an empty list means the run
must make no call at all. Regexes are searched case-insensitively anywhere in the answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool

from toolkit.errors import ConfigError
from toolkit.targets import load_targets

__all__ = ["DEV_TASKS", "AgentTask", "ExpectedCall", "load_tasks", "task_tools"]

#: The agent tasks the toolkit is developed against (``toolkit eval agent dev``): thresholds
#: of the embedded model's decision are chosen on these, never on the cases it is judged by.
DEV_TASKS = Path(__file__).parent / "tasks" / "agent_dev.jsonl"

_KEYS = {
    "id",
    "question",
    "tools",
    "must",
    "must_not",
    "calls",
    "system",
    "max_steps",
    "kind",
    "language",
}


@dataclass(frozen=True)
class ExpectedCall:
    """A call a task's run must contain.

    Attributes:
        name: The tool's name.
        arguments: Arguments the call must give (others may be present too).
    """

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AgentTask:
    """One task of an agent evaluation (see the module docstring for the file format).

    Attributes:
        id: The task's name in reports.
        question: What the user asks.
        tools: ``module:name`` references of the tools to offer.
        must: Regexes the final answer must match.
        must_not: Regexes the final answer may not match.
        calls: Calls the run must make; ``()`` means none at all; ``None``: not checked.
        system: A system message to start the conversation with.
        max_steps: Most model calls in the run.
        kind: A label for grouping results (``sum``, ``chain``, ``no-tool``...).
        language: The question's language, e.g. ``zh`` or ``en``.
    """

    id: str
    question: str
    tools: tuple[str, ...]
    must: tuple[str, ...] = ()
    must_not: tuple[str, ...] = ()
    calls: tuple[ExpectedCall, ...] | None = None
    system: str | None = None
    max_steps: int = 8
    kind: str = ""
    language: str = ""


def _strings(value: Any, where: str, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: {key!r} must be a string or a list of strings.")
    return tuple(value)


def _regexes(value: Any, where: str, key: str) -> tuple[str, ...]:
    patterns = _strings(value, where, key)
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(
                f"{where}: {key!r} has an invalid regex {pattern!r}: {exc}."
            ) from None
    return patterns


def _calls(value: Any, where: str) -> tuple[ExpectedCall, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise ConfigError(f"{where}: 'calls' must be a list of {{name, arguments}} objects.")
    calls = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise ConfigError(f"{where}: each of 'calls' needs a 'name' (and 'arguments').")
        arguments = item.get("arguments") or {}
        if not isinstance(arguments, dict):
            raise ConfigError(
                f"{where}: the 'arguments' of call {item['name']!r} must be an object."
            )
        calls.append(ExpectedCall(item["name"], dict(arguments)))
    return tuple(calls)


def _task(data: Any, where: str, index: int) -> AgentTask:
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: a task must be an object with 'question' and 'tools'.")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown keys {unknown}; the keys are {sorted(_KEYS)}.")
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        raise ConfigError(f"{where}: 'question' must be a non-empty string.")
    tools = _strings(data.get("tools"), where, "tools")
    steps = data.get("max_steps", 8)
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise ConfigError(f"{where}: 'max_steps' must be a whole number of at least 1.")
    system = data.get("system")
    if system is not None and not isinstance(system, str):
        raise ConfigError(f"{where}: 'system' must be a string.")
    return AgentTask(
        id=str(data.get("id") or f"task-{index + 1}"),
        question=question,
        tools=tools,
        must=_regexes(data.get("must"), where, "must"),
        must_not=_regexes(data.get("must_not"), where, "must_not"),
        calls=_calls(data.get("calls"), where),
        system=system,
        max_steps=steps,
        kind=str(data.get("kind") or ""),
        language=str(data.get("language") or ""),
    )


def _records(path: Path, text: str) -> list[tuple[str, Any]]:
    if path.suffix in (".yaml", ".yml"):
        import yaml

        try:
            loaded = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: not valid YAML: {exc}") from None
        if not isinstance(loaded, list):
            raise ConfigError(f"{path}: a YAML task file is a list of tasks.")
        return [(f"{path} task {i + 1}", item) for i, item in enumerate(loaded)]
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            records.append((f"{path}:{number}", json.loads(line)))
        except ValueError as exc:
            raise ConfigError(f"{path}:{number}: not a JSON object: {exc}.") from None
    return records


def load_tasks(path: str | Path, *, limit: int | None = None) -> list[AgentTask]:
    """Read a task file.

    Args:
        path: A ``.jsonl`` or ``.yaml``/``.yml`` file.
        limit: Keep only the first ``limit`` tasks.

    Returns:
        The tasks, in file order.

    Raises:
        ConfigError: The file cannot be read, a task is malformed (the message gives the file
            and line), or two tasks share an id.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the task file {path}: {exc.strerror}.") from None
    tasks = [_task(data, where, i) for i, (where, data) in enumerate(_records(path, text))]
    if not tasks:
        raise ConfigError(f"{path} holds no tasks.")
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise ConfigError(f"{path}: two tasks have the id {task.id!r}; ids must be unique.")
        seen.add(task.id)
    return tasks[:limit] if limit is not None else tasks


def task_tools(task: AgentTask) -> list[BaseTool]:
    """Import the tools a task offers.

    Args:
        task: The task.

    Returns:
        The LangChain tools, in the task's order.

    Raises:
        ConfigError: A reference does not name LangChain tools.
    """
    tools: list[BaseTool] = []
    for reference in task.tools:
        found: Sequence[object] = load_targets(reference)
        for item in found:
            if not isinstance(item, BaseTool):
                raise ConfigError(
                    f"task {task.id!r}: {reference} is not a LangChain tool (use @tool)."
                )
            tools.append(item)
    return tools
