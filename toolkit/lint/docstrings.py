"""LangChain's Google-docstring parsing, replayed step by step with line numbers.

LangChain (``langchain_core.utils.function_calling._parse_google_docstring``) splits the
cleaned docstring on blank lines into blocks, takes the blocks before the first one that starts
with ``Args:`` as the tool description (skipping those after a ``Returns:`` or ``Example:``
block), and reads ``name: description`` lines from that one ``Args:`` block only. This module
does the same on source text, so the linter can say exactly what the model will see and where
in the file the cause is. Pure functions only.
"""

from __future__ import annotations

import difflib
import inspect
import math
import re
import sys
from dataclasses import dataclass

__all__ = [
    "ArgEntry",
    "Block",
    "ParsedDoc",
    "clean_docstring",
    "documented_names",
    "header_kind",
    "is_rest_field",
    "parse_docstring",
    "vagueness",
]

#: Misspellings and variants of ``Args:`` that LangChain does not recognise.
_ARGS_WORDS = frozenset(
    {"args", "arg", "arguments", "argument", "params", "param", "parameters", "parameter"}
)
#: Other Google-style (and common) section names.
_OTHER_SECTIONS = frozenset(
    {
        "returns", "return", "yields", "yield", "raises", "raise", "examples", "example",
        "note", "notes", "see also", "seealso", "todo", "warning", "warnings", "attributes",
        "references", "keyword args", "keyword arguments", "other parameters", "methods",
        "usage", "tip", "tips", "important", "caution", "hint", "danger", "attention",
    }
)  # fmt: skip
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_HEADER = re.compile(r"^(?P<word>[A-Za-z][A-Za-z ]{0,30}?)(?P<space>\s*):\s*$")
_REST_FIELD = re.compile(r"^\s*:(param|parameter|arg|argument|key|keyword|type)\s")
#: A line that documents a name, in Google (``city (str): ...``), NumPy (``city : str``)
#: or reST (``:param str city: ...``) style.
_NAME_LINE = re.compile(
    r"^\s*(?::(?:param|parameter|arg|argument|key|keyword)\s+(?:[^:]*\s)?)?"
    r"\*{0,2}(?P<name>\w+)\s*(?:\([^)]*\)\s*)?:"
)


@dataclass(frozen=True)
class Block:
    """One blank-line-separated block of a cleaned docstring.

    Args:
        text: The block's text as LangChain sees it.
        line: Index of its first line in the cleaned docstring.
        status: What LangChain does with it: ``"description"`` (joined into the tool
            description), ``"skipped"`` (after ``Returns:``/``Example:``), ``"args"`` (the
            ``Args:`` block it reads) or ``"after"`` (after the ``Args:`` block, never read).
    """

    text: str
    line: int
    status: str


@dataclass(frozen=True)
class ArgEntry:
    """One ``name: description`` line LangChain reads from the ``Args:`` block.

    Args:
        raw: The text before the colon, stripped (``"city (str)"``).
        name: The key LangChain uses for it (``"city"``; ``"city(str)"`` stays whole).
        description: The description, continuation lines included.
        line: Index of the line in the cleaned docstring.
        indent: Indentation of the line.
        arg_indent: The indentation LangChain latched from the first argument line.
    """

    raw: str
    name: str
    description: str
    line: int
    indent: int
    arg_indent: int


@dataclass(frozen=True)
class ParsedDoc:
    """A docstring as LangChain parses it.

    Args:
        lines: The cleaned docstring, one string a line.
        blocks: Its blank-line-separated blocks.
        description: The tool description LangChain builds from it.
        args_block: The ``Args:`` block LangChain reads, if any.
        entries: Every argument line read, in order (later duplicates included).
    """

    lines: tuple[str, ...]
    blocks: tuple[Block, ...]
    description: str
    args_block: Block | None
    entries: tuple[ArgEntry, ...]

    @property
    def descriptions(self) -> dict[str, str]:
        """The argument descriptions LangChain ends up with (last entry of a name wins)."""
        result: dict[str, str] = {}
        for entry in self.entries:
            result[entry.name] = entry.description
        return result

    @property
    def args_after_first_block(self) -> bool:
        """Whether a block other than the first starts with ``Args:`` (LangChain's check)."""
        return any(block.text.startswith("Args:") for block in self.blocks[1:])

    def block_of(self, line: int) -> Block:
        """Return the block holding a line of the cleaned docstring.

        Args:
            line: Index of the line.

        Returns:
            The block whose line range contains it.
        """
        found = self.blocks[0]
        for block in self.blocks:
            if block.line <= line:
                found = block
        return found


def clean_docstring(raw: str) -> tuple[str, int]:
    """Clean a docstring as ``inspect.getdoc`` does, and say where its first line was.

    Args:
        raw: The string literal's value, as written in the source.

    Returns:
        The cleaned text and how many leading lines cleaning removed, so that line ``i`` of
        the cleaned text is line ``i + offset`` of the literal.
    """
    lines = raw.expandtabs().split("\n")
    margin = sys.maxsize
    for line in lines[1:]:
        content = len(line.lstrip())
        if content:
            margin = min(margin, len(line) - content)
    lines[0] = lines[0].lstrip()
    if margin < sys.maxsize:
        lines[1:] = [line[margin:] for line in lines[1:]]
    offset = 0
    while offset < len(lines) and not lines[offset]:
        offset += 1
    return inspect.cleandoc(raw), offset


def header_kind(line: str) -> str | None:
    """Classify a docstring line that may be a section header.

    Args:
        line: One line of a cleaned docstring.

    Returns:
        ``"args"`` for exactly ``Args:``; ``"args-bad"`` for a variant LangChain does not
        recognise (``args:``, ``Arguments:``, ``Params:``, ``Args :``, a misspelling);
        ``"section"`` for another known section (``Returns:``, ``Raises:`` ...); else None.
    """
    match = _HEADER.match(line.strip())
    if not match:
        return None
    word, space = match.group("word").strip(), match.group("space")
    if word == "Args" and not space:
        return "args"
    lowered = word.lower()
    if lowered in _ARGS_WORDS:
        return "args-bad"
    if lowered in _OTHER_SECTIONS:
        return "section"
    if " " not in lowered and len(lowered) >= 3:
        ratio = max(difflib.SequenceMatcher(None, lowered, w).ratio() for w in _ARGS_WORDS)
        if ratio >= 0.75:
            return "args-bad"
    return None


def is_rest_field(line: str) -> bool:
    """Tell whether a line is a reST field such as ``:param city: ...``.

    Args:
        line: One docstring line.

    Returns:
        True for ``:param``, ``:arg``, ``:key`` and ``:type`` fields.
    """
    return bool(_REST_FIELD.match(line))


def documented_names(lines: list[str] | tuple[str, ...], names: set[str]) -> dict[str, int]:
    """Find where names are documented in any style, wherever that is in the docstring.

    Args:
        lines: Docstring lines to search.
        names: The parameter names to look for.

    Returns:
        Each name found, mapped to the index of the first line documenting it.
    """
    found: dict[str, int] = {}
    for index, line in enumerate(lines):
        match = _NAME_LINE.match(line)
        if match and match.group("name") in names and match.group("name") not in found:
            found[match.group("name")] = index
    return found


def _split_blocks(doc: str) -> list[tuple[str, int]]:
    blocks = []
    line = 0
    for text in doc.split("\n\n"):
        blocks.append((text, line))
        line += text.count("\n") + 2
    return blocks


def _read_args(block: Block) -> list[ArgEntry]:
    """Read argument lines exactly as LangChain does (indentation latch included)."""
    entries: list[ArgEntry] = []
    raw = name = desc = None
    first = indent_of = 0
    arg_indent: int | None = None
    for offset, line in enumerate(block.text.split("\n")[1:], start=1):
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if arg_indent is None and ":" in line:
            arg_indent = indent
        continuation = arg_indent is not None and indent > arg_indent
        if name is not None and continuation:
            desc = f"{desc} {line.strip()}"
        elif ":" in line:
            if name is not None:
                entries.append(ArgEntry(raw, name, desc, first, indent_of, arg_indent or 0))
            head, _, rest = line.partition(":")
            raw = head.strip()
            arg_name, _, annotation = raw.partition(" ")
            name = arg_name if annotation.startswith("(") and annotation.endswith(")") else raw
            desc, first, indent_of = rest.strip(), block.line + offset, indent
        elif name:
            desc = f"{desc} {line.strip()}"
    if name is not None:
        entries.append(ArgEntry(raw, name, desc, first, indent_of, arg_indent or 0))
    return entries


def parse_docstring(doc: str) -> ParsedDoc:
    """Parse a cleaned docstring the way LangChain's ``parse_docstring=True`` does.

    Args:
        doc: The docstring, already cleaned (see :func:`clean_docstring`).

    Returns:
        The blocks with what LangChain does with each, the description it builds and the
        argument lines it reads.
    """
    blocks: list[Block] = []
    descriptors: list[str] = []
    args_block: Block | None = None
    past_descriptors = False
    for text, line in _split_blocks(doc):
        if args_block is not None:
            status = "after"
        elif text.startswith("Args:"):
            status = "args"
        elif text.startswith(("Returns:", "Example:")):
            past_descriptors, status = True, "skipped"
        elif not past_descriptors:
            descriptors.append(text)
            status = "description"
        else:
            status = "skipped"
        block = Block(text, line, status)
        if status == "args":
            args_block = block
        blocks.append(block)
    entries = _read_args(args_block) if args_block is not None else []
    return ParsedDoc(
        lines=tuple(doc.split("\n")),
        blocks=tuple(blocks),
        description=" ".join(descriptors).strip(),
        args_block=args_block,
        entries=tuple(entries),
    )


def vagueness(text: str, name: str) -> str | None:
    """Say why a description tells the model (almost) nothing, if it does.

    Args:
        text: The description.
        name: The tool or parameter it describes.

    Returns:
        ``"is empty"``, ``"only repeats the name"``, ``"is one word"`` (two CJK characters
        count as one word), or None for a usable description.
    """
    if not text.strip():
        return "is empty"
    normal = re.sub(r"[\W_]+", "", text.lower())
    if normal and normal == re.sub(r"[\W_]+", "", name.lower()):
        return "only repeats the name"
    cjk = len(_CJK.findall(text))
    words = len(re.findall(r"[^\W\d_]+|\d+", _CJK.sub(" ", text))) + math.ceil(cjk / 2)
    return "is one word" if words <= 1 else None
