"""Docstring-layout rules: where LangChain loses the ``Args:`` section. Pure functions.

Given a docstring parsed the way LangChain parses it (:mod:`toolkit.lint.docstrings`), these
checks find ``Args:`` with no blank line before it (TK102), headers LangChain does not
recognise (TK103), text dropped after a blank line inside ``Args:`` (TK112) and sections that
end up in the tool description (TK117). Each issue says what the model sees instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolkit.lint.docstrings import Block, ParsedDoc, documented_names, header_kind, is_rest_field

__all__ = ["INVALID_DOCSTRING", "Issue", "preview", "structure_issues"]

INVALID_DOCSTRING = (
    "LangChain raises ValueError('Found invalid Google-Style docstring.') when it builds "
    "the tool, so the tool cannot be created"
)
_NUMPY_HEADERS = frozenset({"Parameters", "Params", "Arguments", "Args", "Other Parameters"})


@dataclass(frozen=True)
class Issue:
    """One layout problem, located by its line in the cleaned docstring.

    Args:
        code: The rule code.
        index: The line's index in the cleaned docstring.
        message: What is wrong and what the model sees.
        fix: How to fix it.
        severity: ``"error"`` or ``"warning"``.
    """

    code: str
    index: int
    message: str
    fix: str
    severity: str = "error"


def preview(text: str, limit: int = 70) -> str:
    """Quote text on one line, shortened to ``limit`` characters.

    Args:
        text: The text.
        limit: The longest result before quoting.

    Returns:
        The ``repr`` of the flattened, shortened text.
    """
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


def _first_line(doc: ParsedDoc, block: Block) -> int:
    index = block.line
    while index < len(doc.lines) - 1 and not doc.lines[index].strip():
        index += 1
    return index


def _last_line(block: Block) -> int:
    return block.line + block.text.count("\n")


def _consequence(doc: ParsedDoc, block: Block, invalid: bool) -> str:
    if invalid:
        return INVALID_DOCSTRING
    if block.status == "description":
        return (
            "LangChain folds it into the tool description: the model sees "
            f"{preview(doc.description)} and no parameter descriptions"
        )
    return "LangChain never reads it, so the parameters get no description"


def _header_issues(doc: ParsedDoc, invalid: bool) -> tuple[list[Issue], set[int]]:
    """TK102 and TK103."""
    issues: list[Issue] = []
    covered: set[int] = set()
    args = doc.args_block
    for index, line in enumerate(doc.lines):
        block = doc.block_of(index)
        if block.status == "args" or not line.strip():
            continue
        kind = header_kind(line) if not line[0].isspace() else None
        next_line = doc.lines[index + 1].strip() if index + 1 < len(doc.lines) else ""
        numpy = line.strip() in _NUMPY_HEADERS and re.fullmatch(r"-{3,}", next_line)
        if kind == "args" and index != _first_line(doc, block) and args is None:
            above = doc.lines[index - 1]
            why = (
                "the line above it holds only spaces, which is not a blank line"
                if above and not above.strip()
                else "no blank line separates it from the text above"
            )
            msg = f"`Args:` is not a section for LangChain ({why}): "
            issues.append(
                Issue(
                    "TK102",
                    index,
                    msg + _consequence(doc, block, invalid) + ".",
                    "Put an empty line (no spaces) before `Args:`.",
                )
            )
        elif kind == "args-bad" or numpy:
            style = "NumPy-style section " if numpy else ""
            msg = (
                f"{style}`{line.strip()}` is not a header LangChain recognises (only `Args:`, "
                f"capitalised, starting a paragraph): {_consequence(doc, block, invalid)}."
            )
            fix = "Rename the header to `Args:` with `name: description` lines under it."
            issues.append(Issue("TK103", index, msg, fix))
        elif line.strip() == "Args:" and index == _first_line(doc, block) and args is None:
            msg = (
                "`Args:` is indented, and LangChain recognises it only at the start of a line: "
                f"{_consequence(doc, block, invalid)}."
            )
            fix = "Indent `Args:` like the summary line."
            issues.append(Issue("TK103", index, msg, fix))
        else:
            continue
        covered.update(range(index, _last_line(block) + 1))
    rest = [i for i, line in enumerate(doc.lines) if is_rest_field(line)]
    if rest and args is None:
        block = doc.block_of(rest[0])
        msg = (
            "reST fields (`:param name:`) are not read by LangChain: "
            f"{_consequence(doc, block, invalid)}."
        )
        fix = "Rewrite them as a Google-style `Args:` section with `name: description` lines."
        issues.append(Issue("TK103", rest[0], msg, fix))
        covered.update(range(rest[0], len(doc.lines)))
    return issues, covered


def _dropped_issues(doc: ParsedDoc, params: set[str]) -> tuple[list[Issue], set[int]]:
    """TK112: indented paragraphs after the ``Args:`` block (LangChain stops at a blank)."""
    issues: list[Issue] = []
    covered: set[int] = set()
    if doc.args_block is None:
        return issues, covered
    after = [b for b in doc.blocks if b.status == "after"]
    for block in after:
        first = _first_line(doc, block)
        if not doc.lines[first][:1].isspace():
            break
        lines = list(doc.lines[block.line : _last_line(block) + 1])
        names = documented_names(lines, params)
        covered.update(range(block.line, _last_line(block) + 1))
        for name, offset in names.items():
            msg = (
                f"`{name}` comes after a blank line inside `Args:`; LangChain stops reading "
                f"`Args:` at the first blank line, so the model sees `{name}` without a "
                "description."
            )
            issues.append(Issue("TK112", block.line + offset, msg, _NO_BLANKS))
        if not names:
            msg = (
                "This text follows a blank line inside `Args:`; LangChain stops reading there, "
                "so the model never sees it."
            )
            issues.append(Issue("TK112", first, msg, _NO_BLANKS, "warning"))
    return issues, covered


_NO_BLANKS = "Remove the blank lines inside `Args:` (end the section with one blank line)."


def _folded_sections(doc: ParsedDoc) -> list[Issue]:
    """TK117: a section written before ``Args:`` that LangChain puts in the description."""
    issues = []
    for block in doc.blocks:
        if block.status != "description":
            continue
        for index in range(block.line, _last_line(block) + 1):
            line = doc.lines[index]
            if line[:1].isspace() or header_kind(line) != "section" or index == 0:
                continue
            msg = (
                f"The `{line.strip()}` section comes before `Args:`, so LangChain folds it "
                f"into the tool description: the model sees {preview(doc.description)}."
            )
            fix = "Put `Args:` right after the summary; sections after it are not sent."
            issues.append(Issue("TK117", index, msg, fix, "warning"))
    return issues


def structure_issues(
    doc: ParsedDoc, *, invalid: bool, params: set[str]
) -> tuple[list[Issue], set[int]]:
    """Find where the docstring's layout makes LangChain lose or misplace text.

    Args:
        doc: The parsed docstring.
        invalid: Whether LangChain will raise "Found invalid Google-Style docstring." for it.
        params: Names of the parameters the model sees.

    Returns:
        The issues, and the docstring lines they account for (so a parameter documented there
        is not reported again as undocumented).
    """
    issues, covered = _header_issues(doc, invalid)
    dropped, dropped_lines = _dropped_issues(doc, params)
    return [*issues, *dropped, *_folded_sections(doc)], covered | dropped_lines
