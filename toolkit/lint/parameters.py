"""What the model sees of each parameter: the ``Args:`` entries against the signature. Pure.

:func:`check_entries` matches the documented names with the annotated parameters, as LangChain
does (TK105, TK106, TK110, TK111); :func:`check_params` reports what each visible parameter ends
up with in the schema (TK104, TK107, TK108, TK109, TK116); :func:`raises_invalid` replays
LangChain's ``error_on_invalid_docstring`` check.
"""

from __future__ import annotations

import re

from toolkit.lint.catalogue import Finding, Param, ToolSpec
from toolkit.lint.catalogue import finding as _finding
from toolkit.lint.docstrings import ParsedDoc, documented_names, header_kind
from toolkit.lint.layout import INVALID_DOCSTRING

__all__ = ["check_entries", "check_params", "raises_invalid"]

_NOT_REQUIRING_ARGS = frozenset({"run_manager", "callbacks", "runtime"})


def raises_invalid(spec: ToolSpec, doc: ParsedDoc | None) -> bool:
    """Replay LangChain's ``error_on_invalid_docstring`` check.

    Args:
        spec: The tool.
        doc: Its parsed docstring, or None without one.

    Returns:
        True when LangChain raises ``Found invalid Google-Style docstring.`` building it.
    """
    if not (spec.parse and spec.raise_invalid and spec.infer_params):
        return False
    if doc is None:
        return True
    needs_args = any(
        p.annotation is not None and p.name not in _NOT_REQUIRING_ARGS for p in spec.params
    )
    return needs_args and (len(doc.blocks) < 2 or not doc.args_after_first_block)


def check_entries(spec: ToolSpec, doc: ParsedDoc, base: int) -> tuple[list[Finding], set]:
    """TK105/TK106/TK110/TK111: ``Args:`` entries that are not annotated parameters.

    Args:
        spec: The tool.
        doc: Its parsed docstring.
        base: The file line of the cleaned docstring's first line.

    Returns:
        The findings, and the parameters they already account for (TK106 explains the missing
        annotation, TK111 the missing description).
    """
    annotated = {p.name for p in spec.params if p.annotation is not None}
    if spec.returns_annotated:
        annotated.add("return")
    by_name = {p.name: p for p in spec.params}
    found: list[Finding] = []
    explained: set[str] = set()
    seen: set[str] = set()
    for entry in doc.entries:
        if entry.name in annotated or entry.name in seen:
            continue
        seen.add(entry.name)
        raised = (
            f"LangChain raises ValueError('Arg {entry.name} in docstring not found in function "
            "signature.') when it builds the tool"
        )
        line = base + entry.line
        typed = re.fullmatch(r"(\w+)\((.*)\)", entry.name)
        if header_kind(entry.raw + ":") == "section":
            msg = (
                f"`{entry.raw}:` follows the last argument without a blank line, so LangChain "
                f"reads it as an argument named `{entry.name}`: {raised}."
            )
            fix = f"Put a blank line before `{entry.raw}:`."
            found.append(_finding(spec, "TK110", line, msg, fix))
        elif typed and typed.group(1) in by_name:
            explained.add(typed.group(1))
            msg = f"`{entry.raw}:` has no space before the type: {raised}."
            fix = f"Write `{typed.group(1)} ({typed.group(2)}):`."
            found.append(_finding(spec, "TK111", line, msg, fix))
        elif entry.name in by_name:
            explained.add(entry.name)
            msg = (
                f"`{entry.name}` is documented but has no type annotation; LangChain only "
                f"matches documented names against annotated parameters: {raised}."
            )
            fix = f"Annotate it, e.g. `{entry.name}: str`."
            found.append(_finding(spec, "TK106", line, msg, fix))
        else:
            names = ", ".join(
                p.name for p in spec.params if p.hidden is None and not p.name.startswith("_")
            )
            stars = entry.name.lstrip("*")
            hint = f" Write `{stars}:` without stars." if stars != entry.name else ""
            msg = f"`{entry.name}` is documented but is not a parameter: {raised}."
            fix = f"Remove it or rename it to a parameter ({names or 'there are none'}).{hint}"
            found.append(_finding(spec, "TK105", line, msg, fix))
    return found, explained


def _type_text(param: Param) -> str:
    return f" ({param.annotation})" if param.annotation else ""


def check_params(
    spec: ToolSpec, doc: ParsedDoc | None, base: int, covered: set[int], explained: set
) -> list[Finding]:
    """TK104, TK107, TK108, TK109, TK116: what each visible parameter ends up with.

    Args:
        spec: The tool.
        doc: Its parsed docstring, or None without one.
        base: The file line of the cleaned docstring's first line.
        covered: Docstring lines a layout finding already accounts for.
        explained: Parameters an ``Args:`` entry finding already accounts for.

    Returns:
        The findings.
    """
    found: list[Finding] = []
    visible = [p for p in spec.params if p.hidden is None]
    lines = list(doc.lines) if doc is not None else []
    if doc is not None and doc.args_block is not None and spec.parse:
        start = doc.args_block.line
        lines[start : start + doc.args_block.text.count("\n") + 1] = [""] * (
            doc.args_block.text.count("\n") + 1
        )
    outside = lines
    elsewhere = documented_names(outside, {p.name for p in visible})
    descriptions = doc.descriptions if (doc is not None and spec.parse) else {}
    invalid = raises_invalid(spec, doc)
    dropped = [
        p.name
        for p in visible
        if p.name in elsewhere and not p.annotated_description and not p.name.startswith("_")
    ]
    if not spec.parse and doc is not None and dropped:
        found.append(_no_parse_finding(spec, doc, dropped))
    for param in visible:
        if param.name.startswith("_") and param.kind == "normal":
            found.append(_underscore_finding(spec, param))
            continue
        if param.mutable_default:
            found.append(
                _finding(
                    spec,
                    "TK116",
                    param.line,
                    f"`{param.name}` defaults to `{param.mutable_default}`: one object shared by "
                    "every direct call of the function (LangChain's validation copies it, "
                    "Python calls do not).",
                    "Default to None (annotate `X | None`) or to an immutable value (a tuple).",
                )
            )
        if param.annotation is None and param.kind == "normal" and param.name not in explained:
            found.append(_unannotated_finding(spec, param))
        if param.name in explained or (param.name in ("self", "cls") and not param.annotation):
            continue
        if doc is None or param.name in descriptions or param.annotated_description:
            continue
        where = elsewhere.get(param.name)
        if where is not None and (not spec.parse or where in covered):
            continue
        found.append(_undocumented_finding(spec, param, where, base, invalid))
    return found


def _no_parse_finding(spec: ToolSpec, doc: ParsedDoc, names: list[str]) -> Finding:
    how = (
        "create_agent/ToolNode wrap a plain function with tool(), without parse_docstring"
        if spec.origin == "agent tools"
        else f"{spec.origin} does not parse the docstring"
    )
    seen = (
        "the parameter descriptions in the docstring are never read"
        if spec.description_given
        else "the model sees the whole docstring, `Args:` text included, as the tool description"
    )
    fix = "Use `@tool(parse_docstring=True)` (or `parse_docstring=True` in from_function)."
    if doc.args_block is None:
        fix += " LangChain then reads only an `Args:` header that follows a blank line."
    documented = ", ".join(f"`{n}`" for n in names)
    verb = "gets" if len(names) == 1 else "get"
    msg = f"{how}: {seen}, and {documented} {verb} no description."
    return _finding(spec, "TK108", spec.anchor_line, msg, fix)


def _underscore_finding(spec: ToolSpec, param: Param) -> Finding:
    if param.has_default:
        tail, severity = "it always gets its default", "warning"
    else:
        tail, severity = "every call fails with a missing argument", "error"
    return _finding(
        spec,
        "TK109",
        param.line,
        f"`{param.name}` starts with `_`, so LangChain (pydantic) drops it from the schema: "
        f"the model never sees it and {tail}.",
        f"Rename it without the leading underscore, e.g. `{param.name.lstrip('_') or 'value'}`.",
        severity,
    )


def _unannotated_finding(spec: ToolSpec, param: Param) -> Finding:
    if param.name in ("self", "cls"):
        msg = (
            f"`{param.name}` is shown to the model as a required parameter with schema `{{}}`: "
            f"{spec.origin} on a method does not bind `{param.name}`."
        )
        fix = (
            "Define the tool as a module-level function, or build it from the bound method: "
            "`StructuredTool.from_function(obj.method, parse_docstring=True)`."
        )
    else:
        msg = (
            f"`{param.name}` has no type annotation: the model sees `{param.name}: {{}}`, any type."
        )
        fix = f"Annotate it, e.g. `{param.name}: str`."
    return _finding(spec, "TK107", param.line, msg, fix)


def _undocumented_finding(
    spec: ToolSpec, param: Param, where: int | None, base: int, invalid: bool
) -> Finding:
    if invalid:
        seen = f"{INVALID_DOCSTRING} (the docstring has no `Args:` section)"
    elif where is not None:
        seen = (
            f"it is documented on line {base + where}, outside the `Args:` block LangChain "
            "reads, so the model sees it without a description"
        )
    else:
        seen = f"the model sees `{param.name}`{_type_text(param)} with no description"
    if param.annotation and "RunnableConfig" in param.annotation:
        seen += (
            "; LangChain hides a config parameter only when it is annotated exactly "
            "`RunnableConfig`"
        )
    return _finding(
        spec,
        "TK104",
        param.line,
        f"`{param.name}` is not documented: {seen}.",
        f"Add `{param.name}: <what it means>` under `Args:`.",
    )
