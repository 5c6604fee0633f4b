"""Rich rendering of schemas, lint findings, messages and transcripts.

Every function takes a :class:`rich.console.Console` (or returns a renderable), so output is
coloured on a terminal and plain when piped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from toolkit.lint import Finding
from toolkit.loop import LoopResult
from toolkit.schema import parameters_table

__all__: list[str] = [
    "render_findings",
    "render_loop_result",
    "render_message",
    "render_schemas",
    "render_transcript",
    "schema_panel",
]

_MESSAGE_STYLES = {"human": "cyan", "system": "magenta", "ai": "green", "tool": "blue"}
_MESSAGE_TITLES = {"human": "Human", "system": "System", "ai": "AI", "tool": "Tool"}


def render_message(message: BaseMessage) -> Panel:
    """Render one chat message as a panel.

    Assistant messages show their text and a table of tool calls (name, id, arguments), invalid
    calls in red with the raw arguments and the parse error, and the tokens used; tool results
    show the tool, the call they answer and their status, errors in red.

    Args:
        message: Any LangChain message.

    Returns:
        A panel to print with a :class:`rich.console.Console`.
    """
    kind = message.type
    title = _MESSAGE_TITLES.get(kind, kind.title())
    style, subtitle = _MESSAGE_STYLES.get(kind, "white"), None
    parts: list[RenderableType] = []
    if message.text:
        parts.append(Text(message.text))
    if isinstance(message, AIMessage):
        if message.tool_calls or message.invalid_tool_calls:
            parts.append(_tool_call_table(message))
        if message.invalid_tool_calls:
            style = "red"
        if message.usage_metadata:
            usage = message.usage_metadata
            subtitle = f"{usage['input_tokens']} in · {usage['output_tokens']} out tokens"
    if isinstance(message, ToolMessage):
        failed = message.status == "error"
        title = f"Tool · {message.name or '?'} · {message.tool_call_id}"
        style, subtitle = ("red", "error") if failed else ("blue", "success")
        if failed and parts:
            parts[0] = Text(message.text, style="red")
    if not parts:
        parts.append(Text("(empty)", style="dim"))
    return Panel(
        Group(*parts),
        title=Text(title, style=f"bold {style}"),
        title_align="left",
        subtitle=subtitle,
        subtitle_align="right",
        border_style=style,
    )


def _tool_call_table(message: AIMessage) -> Table:
    table = Table(title="Tool calls", title_justify="left", expand=True, show_lines=False)
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("name", style="bold")
    table.add_column("id", style="dim", overflow="fold")
    table.add_column("arguments", overflow="fold", ratio=1)
    number = 0
    for number, call in enumerate(message.tool_calls, 1):
        table.add_row(str(number), call["name"], call.get("id") or "", _arguments(call["args"]))
    for offset, call in enumerate(message.invalid_tool_calls, number + 1):
        raw = Text(call.get("args") or "", style="red")
        if call.get("error"):
            raw.append(f"\n{call['error']}".rstrip(), style="dim red")
        name = Text(f"{call.get('name') or '?'} (invalid)", style="bold red")
        table.add_row(str(offset), name, call.get("id") or "", raw)
    return table


def _arguments(args: Any) -> Text:
    return Text(json.dumps(args, ensure_ascii=False))


def render_transcript(messages: Iterable[BaseMessage], console: Console) -> None:
    """Print a transcript, one panel per message.

    Args:
        messages: The messages, in order.
        console: Where to print (coloured on a terminal, plain when piped).
    """
    for message in messages:
        console.print(render_message(message))


def render_loop_result(result: LoopResult, console: Console) -> None:
    """Print the outcome of a tool-loop run: status, answer, calls, tokens, and what to do.

    Args:
        result: The result of :meth:`toolkit.loop.ToolLoop.run`.
        console: Where to print.
    """
    ok = result.answered
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    status = Text(result.status.value, style="bold green" if ok else "bold red")
    table.add_row("status", status)
    if result.answer is not None:
        table.add_row("answer", Text(result.answer))
    usage = result.usage
    table.add_row("model calls", str(result.model_calls))
    table.add_row("tool calls", str(result.tool_calls))
    table.add_row("tokens", f"{usage.input_tokens} in · {usage.output_tokens} out")
    table.add_row("time", f"{result.elapsed:.2f} s")
    if result.error:
        table.add_row("error", Text(result.error, style="red"))
    if result.hint:
        table.add_row("hint", Text(result.hint, style="yellow"))
    console.print(
        Panel(table, title="Result", title_align="left", border_style="green" if ok else "red")
    )


def schema_panel(schema: dict[str, Any]) -> Panel:
    """Render one OpenAI tool schema: its description, highlighted JSON and a parameter table.

    Args:
        schema: A tool dict as :func:`toolkit.schema.tool_schema` returns it.

    Returns:
        A panel titled with the tool name.
    """
    function = schema.get("function", schema)
    table = Table(expand=True, title="Parameters", title_justify="left")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("type", style="cyan", overflow="fold")
    table.add_column("required", justify="center", no_wrap=True)
    table.add_column("default", overflow="fold")
    table.add_column("description", ratio=1, overflow="fold")
    rows = parameters_table(schema)
    for row in rows:
        description = Text(row.description) if row.description else Text("(none)", style="bold red")
        table.add_row(
            row.name,
            row.type,
            Text("yes", style="green") if row.required else Text("no", style="dim"),
            row.default if row.default is not None else Text("-", style="dim"),
            description,
        )
    code = json.dumps(schema, indent=2, ensure_ascii=False)
    parts: list[RenderableType] = [
        Syntax(code, "json", theme="ansi_dark", background_color="default", word_wrap=True)
    ]
    parts.append(table if rows else Text("No parameters.", style="dim"))
    subtitle = "strict" if function.get("strict") else None
    return Panel(
        Group(*parts),
        title=Text(str(function.get("name", "?")), style="bold magenta"),
        title_align="left",
        subtitle=subtitle,
        border_style="magenta",
    )


def render_schemas(schemas: Iterable[dict[str, Any]], console: Console) -> None:
    """Print tool schemas, one panel each.

    Args:
        schemas: Tool dicts as :func:`toolkit.schema.tool_schema` returns them.
        console: Where to print.
    """
    for schema in schemas:
        console.print(schema_panel(schema))


_SEVERITY_STYLES = {"error": "bold red", "warning": "bold yellow"}


def render_findings(
    findings: Iterable[Finding], console: Console, *, files: int, not_linted: int = 0
) -> None:
    """Print lint findings grouped by file, each with its fix, then a summary line.

    Args:
        findings: The findings, sorted by file and line.
        console: Where to print.
        files: How many files were checked (for the summary).
        not_linted: How many public functions were not linted as tools (a note says how to
            include them).
    """
    findings = list(findings)
    for finding in findings:
        style = _SEVERITY_STYLES.get(finding.severity, "bold")
        head = Text.assemble(
            (f"{finding.path}:{finding.line}", "bold"),
            "  ",
            (finding.code, style),
            " ",
            (finding.severity, style),
            "  ",
            (finding.tool, "magenta"),
        )
        console.print(head)
        console.print(Padding(Text(finding.message), (0, 0, 0, 2), expand=False))
        fix = Text.assemble("fix: ", (finding.fix, "green"))
        console.print(Padding(fix, (0, 0, 0, 2), expand=False))
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    where = f"{files} file" + ("" if files == 1 else "s")
    if not findings:
        console.print(Text(f"No problems found in {where}.", style="bold green"))
    else:
        counts = f"{errors} error{'' if errors == 1 else 's'}, {warnings} warning"
        counts += "" if warnings == 1 else "s"
        style = "bold red" if errors else "bold yellow"
        console.print(Text(f"Found {counts} in {where}.", style=style))
    if not_linted:
        noun = "function" if not_linted == 1 else "functions"
        note = (
            f"{not_linted} public {noun} not linted as tools (no @tool, tool call or tools list "
            "names them); --all-functions lints them too."
        )
        console.print(Text(note, style="dim"))
