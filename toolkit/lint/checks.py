"""The linter's rules, as pure functions over a :class:`~toolkit.lint.catalogue.ToolSpec`.

:func:`check_spec` replays LangChain on one tool (how its docstring is parsed, which parameters
it hides) and returns a :class:`~toolkit.lint.catalogue.Finding` for every way the schema the model
sees is degraded; :func:`check_duplicates` compares tools bound together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolkit.lint.catalogue import Finding, ToolSpec
from toolkit.lint.catalogue import finding as _finding
from toolkit.lint.docstrings import ParsedDoc, clean_docstring, parse_docstring, vagueness
from toolkit.lint.layout import INVALID_DOCSTRING, preview, structure_issues
from toolkit.lint.parameters import check_entries, check_params, raises_invalid

__all__ = ["check_all", "check_duplicates", "check_spec"]

_NAME_PATTERN = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def _check_docstring_presence(spec: ToolSpec, doc: ParsedDoc | None, line: int) -> list:
    if spec.description_given:
        return []
    fix = (
        "Write a docstring: a one-line summary of what the tool does, a blank line, then "
        "`Args:` with one `name: description` line per parameter."
    )
    if doc is None:
        if not spec.params_known:
            return []
        if not spec.parse:
            seen = (
                "LangChain raises ValueError('Function must have a docstring if description "
                "not provided.') when it builds the tool"
            )
        elif spec.raise_invalid:
            seen = INVALID_DOCSTRING
        else:
            seen = "the model sees an empty tool description"
        return [_finding(spec, "TK101", spec.line, f"No docstring: {seen}.", fix)]
    if spec.parse and spec.params_known and not doc.description:
        seen = (
            INVALID_DOCSTRING
            if raises_invalid(spec, doc)
            else "the model sees an empty description"
        )
        msg = f"The docstring has no summary before `Args:`: {seen}."
        return [_finding(spec, "TK101", line, msg, fix)]
    return []


def _summary(spec: ToolSpec, doc: ParsedDoc | None) -> str | None:
    if spec.description is not None:
        return spec.description
    if spec.description_given or doc is None:
        return None
    return doc.description if spec.parse else "\n".join(doc.lines)


def _check_vague(spec: ToolSpec, doc: ParsedDoc | None, base: int) -> list[Finding]:
    found = []
    summary = _summary(spec, doc)
    if summary and (why := vagueness(summary, spec.name or spec.function)):
        line = base if spec.description is None else spec.anchor_line
        found.append(
            _finding(
                spec,
                "TK115",
                line,
                f"The tool description {preview(summary)} {why}: the model has little to "
                "decide when to call it.",
                "Say what the tool does and when to use it, in a full sentence.",
            )
        )
    params = {p.name: p for p in spec.params if p.hidden is None}
    entries = doc.entries if (doc is not None and spec.parse) else ()
    described = set()
    for entry in entries:
        if entry.name in params and entry.name not in described:
            described.add(entry.name)
            if why := vagueness(entry.description, entry.name):
                found.append(
                    _vague_param(spec, entry.name, entry.description, why, base + entry.line)
                )
    for param in params.values():
        text = param.annotated_description
        if (
            param.name not in described
            and text is not None
            and (why := vagueness(text, param.name))
        ):
            found.append(_vague_param(spec, param.name, text, why, param.line))
    return found


def _vague_param(spec: ToolSpec, name: str, text: str, why: str, line: int) -> Finding:
    return _finding(
        spec,
        "TK115",
        line,
        f"The description of `{name}` ({preview(text)}) {why}: the model sees little more "
        "than the name.",
        f"Describe `{name}`: its meaning, format and an example value.",
    )


def check_spec(spec: ToolSpec) -> list[Finding]:
    """Replay LangChain on one tool and report what degrades its schema.

    Args:
        spec: The tool, as collected from source or from a live object.

    Returns:
        The findings, sorted by line.
    """
    found: list[Finding] = []
    if spec.name is not None and not _NAME_PATTERN.fullmatch(spec.name):
        found.append(
            _finding(
                spec,
                "TK113",
                spec.name_line,
                f"Tool name {spec.name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$: the OpenAI "
                "API rejects the whole request (HTTP 400) and other servers may mangle it.",
                "Use letters, digits, `_` and `-` only, at most 64 characters.",
            )
        )
    doc, base = None, spec.doc_line
    if spec.docstring is not None and spec.docstring.strip():
        text, offset = clean_docstring(spec.docstring)
        doc, base = parse_docstring(text), spec.doc_line + offset
    found += _check_docstring_presence(spec, doc, base)
    found += _check_vague(spec, doc, base)
    if spec.params_known and spec.infer_params:
        covered: set[int] = set()
        explained: set[str] = set()
        if doc is not None and spec.parse:
            visible = {p.name for p in spec.params if p.hidden is None}
            issues, covered = structure_issues(
                doc, invalid=raises_invalid(spec, doc), params=visible
            )
            found += [
                _finding(spec, i.code, base + i.index, i.message, i.fix, i.severity) for i in issues
            ]
            entry_findings, explained = check_entries(spec, doc, base)
            found += entry_findings
        found += check_params(spec, doc, base, covered, explained)
    return sorted(found, key=lambda f: (f.line, f.code))


def check_duplicates(specs: list[ToolSpec]) -> list[Finding]:
    """Report tools that share a name with an earlier one.

    Method tools are compared with the other methods of their class only: tools of different
    classes (or a class and its module) are alternatives, not one set bound together.

    Args:
        specs: Tools bound together (one file, or one package).

    Returns:
        One TK114 finding for each tool after the first with a given name.
    """
    first: dict[tuple[str | None, str], ToolSpec] = {}
    found = []
    for spec in specs:
        if spec.name is None:
            continue
        key = (spec.owner, spec.name)
        if key not in first:
            first[key] = spec
            continue
        other = first[key]
        found.append(
            _finding(
                spec,
                "TK114",
                spec.name_line,
                f"Tool name {spec.name!r} is also used at {other.path}:{other.name_line}: the "
                "model cannot tell the two apart, and a dispatcher keyed by name (ToolNode, "
                "the toolkit loop) runs only one of them.",
                "Give each tool a distinct name.",
            )
        )
    return found


def check_all(specs: Sequence[ToolSpec]) -> list[Finding]:
    """Check tools bound together: each one, then their names against each other.

    Args:
        specs: The tools (one file, or the objects given to :func:`toolkit.lint.lint_tools`).

    Returns:
        The findings, sorted by file, line and code.
    """
    found = [f for spec in specs for f in check_spec(spec)]
    found += check_duplicates(list(specs))
    return sorted(found, key=lambda f: (f.path, f.line, f.code))
