"""The settings of a tool loop, with their defaults, checked once when they are made.

:class:`LoopSettings` is the one place the defaults live: :class:`toolkit.loop.ToolLoop` takes
it (or its fields as keyword arguments), :class:`toolkit.loop.record.RunRecord` reads it, and
``toolkit run`` takes its option defaults from it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from toolkit.errors import ConfigError, UnknownToolError
from toolkit.wire import forced_tool_name, normalise_tool_choice

__all__ = ["LoopSettings", "check_tool_choice", "forces_a_call"]


@dataclass(frozen=True)
class LoopSettings:
    """How a :class:`~toolkit.loop.ToolLoop` binds its tools and what bounds a run.

    Attributes:
        tool_choice: Passed to ``bind_tools``: ``"auto"``, ``"none"``, ``"required"``/``"any"``,
            a tool name or an OpenAI ``{"type": "function", "function": {"name": ...}}`` dict.
            A forcing choice applies to the first model call only.
        parallel_tool_calls: Passed to ``bind_tools`` when set.
        max_model_calls: Model calls per run before it ends with ``STEP_BUDGET_EXHAUSTED``.
        tool_timeout: Seconds one tool call may run (``None``: no limit).
        max_wall_time: Seconds a run may take (``None``: no limit); checked before each model
            call, and no tool call runs past it.
        max_result_chars: Longest tool result fed back to the model (``None``: no limit).
        retry_budget: Consecutive failures of one tool before the model is told to stop calling
            it; one more ends the run with ``RETRY_BUDGET_EXHAUSTED``.
        parallel: Run the calls of one assistant message concurrently.

    Raises:
        ConfigError: A setting is invalid (the message names it and says what it takes).
    """

    tool_choice: str | dict[str, Any] | None = None
    parallel_tool_calls: bool | None = None
    max_model_calls: int = 10
    tool_timeout: float | None = 60.0
    max_wall_time: float | None = 600.0
    max_result_chars: int | None = 20_000
    retry_budget: int = 3
    parallel: bool = True

    def __post_init__(self) -> None:
        _check_count("max_model_calls", self.max_model_calls)
        _check_count("retry_budget", self.retry_budget)
        if self.max_result_chars is not None:
            _check_count("max_result_chars", self.max_result_chars, ", or None for no limit")
        _check_seconds("tool_timeout", self.tool_timeout)
        _check_seconds("max_wall_time", self.max_wall_time)
        if not isinstance(self.parallel, bool):
            raise ConfigError(f"parallel={self.parallel!r} is not valid; use True or False.")
        if not isinstance(self.parallel_tool_calls, (bool, type(None))):
            raise ConfigError(
                f"parallel_tool_calls={self.parallel_tool_calls!r} is not valid; use True, False "
                "or None (not sent)."
            )
        _normal_tool_choice(self.tool_choice)

    def replace(self, **changes: Any) -> LoopSettings:
        """Return a copy with some settings changed (checked like new ones).

        Args:
            **changes: New values, by setting name.

        Returns:
            The new settings.

        Raises:
            ConfigError: A name is not a setting, or a value is invalid.
        """
        names = [field.name for field in dataclasses.fields(self)]
        unknown = sorted(set(changes) - set(names))
        if unknown:
            raise ConfigError(
                f"not a setting of the tool loop: {', '.join(unknown)}; use one of: "
                f"{', '.join(names)}."
            )
        return dataclasses.replace(self, **changes) if changes else self


def check_tool_choice(tool_choice: Any, tool_names: Collection[str]) -> None:
    """Check locally that a ``tool_choice`` naming a tool names one of the bound tools.

    Args:
        tool_choice: ``"auto"``, ``"none"``, ``"required"``, ``"any"``, a tool name, or an OpenAI
            ``{"type": "function", "function": {"name": ...}}`` dict.
        tool_names: The names of the tools that will be bound.

    Raises:
        ConfigError: ``tool_choice`` is none of those forms, or the tool it names is not among
            ``tool_names`` (the message lists them).
    """
    name = forced_tool_name(_normal_tool_choice(tool_choice))
    if name is not None and name not in tool_names:
        error = UnknownToolError(name, sorted(tool_names))
        raise ConfigError(
            f"tool_choice names a tool that is not bound. {error} Or use auto, none or required."
        )


def forces_a_call(tool_choice: Any) -> bool:
    """Whether a (valid) ``tool_choice`` makes the model call a tool: ``required`` or a name.

    Args:
        tool_choice: A ``tool_choice`` that :class:`LoopSettings` accepts.

    Returns:
        ``True`` for ``"required"``, ``"any"``, ``True`` and named tools.
    """
    return _normal_tool_choice(tool_choice) not in (None, "auto", "none")


def _normal_tool_choice(tool_choice: Any) -> str | dict[str, Any] | None:
    try:
        return normalise_tool_choice(tool_choice)
    except ValueError as exc:
        raise ConfigError(f"tool_choice={tool_choice!r} is not valid: {exc}") from None


def _check_count(name: str, value: Any, or_else: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{name}={value!r} is not valid; use a whole number, 1 or more{or_else}.")


def _check_seconds(name: str, value: Any) -> None:
    if value is None:
        return
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not 0 < value < math.inf:
        raise ConfigError(
            f"{name}={value!r} is not valid; use a number of seconds above 0, or None for no limit."
        )
