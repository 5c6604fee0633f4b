"""``toolkit run`` and ``toolkit demo``: ask a question and watch the tool loop answer it.

Each message is printed as it is appended (a spinner shows while the model thinks or tools run),
then a summary with the status, the answer, model calls and tokens. ``--json`` prints the whole
run as JSON instead (OpenAI-style messages plus the status). The model is the configured provider,
or the embedded local model when none is configured.

Exit status: 0 answered, 1 a budget ended the run (the summary names the setting to raise),
2 an error (a bad ``--tools`` module or option, or the model failed).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.tools import BaseTool
from rich.console import Console

from toolkit.errors import TargetError
from toolkit.loop import LoopResult, LoopSettings, LoopStatus, ToolLoop, check_tool_choice
from toolkit.models import load_chat_model
from toolkit.render import render_loop_result, render_message
from toolkit.targets import load_targets

__all__ = ["DEMO_QUESTION", "load_tools", "register"]

#: The seed's example question: "add up the temperatures of Beijing and Xi'an".
DEMO_QUESTION = "计算一下北京和西安的气温的总和"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``run`` and ``demo`` to the CLI.

    Args:
        subparsers: The top-level sub-parsers.
    """
    run = subparsers.add_parser(
        "run",
        help="ask a question; the model calls tools until it answers",
        description="Run the tool loop on QUESTION with the tools of a module, printing each "
        "step as it happens.",
    )
    run.add_argument("question", metavar="QUESTION", help="what to ask the model")
    _add_options(run)
    run.set_defaults(handler=lambda args: _execute(args.question, args))
    demo = subparsers.add_parser(
        "demo",
        help=f"the seed's example: {DEMO_QUESTION}",
        description=f"Run the seed's example question ({DEMO_QUESTION}: the sum of the "
        "temperatures of Beijing and Xi'an) with the seed's tools, get_weather and add.",
    )
    _add_options(demo)
    demo.set_defaults(tools="tools:SEED_TOOLS", handler=lambda args: _execute(DEMO_QUESTION, args))


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tools",
        default="tools",
        metavar="MODULE",
        help="module, module:NAME or path/to/file.py with the tools (ALL_TOOLS, else every "
        "tool in it; default: tools)",
    )
    parser.add_argument(
        "--max-steps",
        type=_positive(int),
        default=LoopSettings.max_model_calls,
        metavar="N",
        help=f"model calls at most (default {LoopSettings.max_model_calls})",
    )
    parser.add_argument(
        "--tool-choice",
        metavar="CHOICE",
        help="auto, none, required, or a tool name (forced on the first model call only)",
    )
    parser.add_argument(
        "--tool-timeout",
        type=_positive(float),
        default=LoopSettings.tool_timeout,
        metavar="S",
        help=f"seconds per tool call (default {LoopSettings.tool_timeout:g})",
    )
    parser.add_argument(
        "--max-time",
        type=_positive(float),
        default=LoopSettings.max_wall_time,
        metavar="S",
        help=f"seconds for the whole run (default {LoopSettings.max_wall_time:g})",
    )
    parser.add_argument(
        "--sequential", action="store_true", help="run the tool calls of one reply one by one"
    )
    parser.add_argument("--json", action="store_true", help="print the whole run as JSON")


def _positive(kind: type) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number above 0")
        return value

    return parse


def load_tools(spec: str) -> list[BaseTool]:
    """Load tools from ``module``, ``module:NAME`` or ``path/to/file.py`` (``:NAME`` allowed).

    Targets are resolved as by ``toolkit schema`` (:func:`toolkit.targets.load_targets`): a
    module's ``ALL_TOOLS``, else the LangChain tools defined in it; ``:NAME`` picks one tool or
    list. Running needs LangChain tools (``@tool``), not plain functions.

    Args:
        spec: Where the tools are.

    Returns:
        The tools, in order.

    Raises:
        TargetError: The module cannot be found or imported, or holds no LangChain tools.
    """
    tools = load_targets(spec)
    if not tools or not all(isinstance(tool, BaseTool) for tool in tools):
        raise TargetError(
            f"{spec} holds no LangChain tools: define ALL_TOOLS = [...] or @tool functions "
            "in it, or name a tool or list with MODULE:NAME."
        )
    return tools


def _execute(question: str, args: argparse.Namespace) -> int:
    tools = load_tools(args.tools)
    settings = LoopSettings(
        tool_choice=args.tool_choice,
        max_model_calls=args.max_steps,
        tool_timeout=args.tool_timeout,
        max_wall_time=args.max_time,
        parallel=not args.sequential,
    )
    check_tool_choice(settings.tool_choice, {tool.name for tool in tools})  # before the model loads
    if args.json:
        result = ToolLoop(load_chat_model(), tools, settings=settings).run(question)
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        console = Console(highlight=False)
        with console.status("loading the model…"):
            model = load_chat_model()
        result = _stream(ToolLoop(model, tools, settings=settings), question, console)
    return _exit_status(result)


def _stream(loop: ToolLoop, question: str, console: Console) -> LoopResult:
    pending = 0
    with console.status("model is thinking…") as status:

        def show(message: BaseMessage) -> None:
            nonlocal pending
            console.print(render_message(message))
            if isinstance(message, AIMessage):
                pending = len(message.tool_calls) + len(message.invalid_tool_calls)
            elif isinstance(message, ToolMessage):
                pending -= 1
            status.update(
                f"running {pending} tool call(s)…" if pending > 0 else "model is thinking…"
            )

        result = loop.run(question, on_message=show)
    render_loop_result(result, console)
    return result


def _exit_status(result: LoopResult) -> int:
    if result.answered:
        return 0
    return 2 if result.status is LoopStatus.MODEL_ERROR else 1
