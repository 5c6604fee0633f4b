"""Files: list and read text files inside one sandbox directory, and nothing outside it.

The module-level tools work on the sample folder shipped in ``tools/data/files``;
:func:`make_file_tools` returns the same two tools confined to another directory.

A path is refused before the file system is touched when it is absolute (``/etc``, ``C:``,
``~``), contains ``..``, a NUL or control character, a backslash, a percent-encoded byte
(``..%2f``) or characters that Unicode normalisation would change (full-width dots and slashes).
What remains is resolved and must still lie inside the root, so a symlink pointing out is
refused too; the final open uses ``O_NOFOLLOW``. Reads are limited to :data:`MAX_READ_BYTES` of
UTF-8 text. Every refusal raises :class:`~langchain_core.tools.ToolException` saying why.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import unicodedata
from pathlib import Path, PurePosixPath

from langchain_core.tools import BaseTool, ToolException, tool

__all__ = ["DEFAULT_ROOT", "MAX_READ_BYTES", "make_file_tools", "read_file", "search_files"]

#: The sandbox of the module-level tools: sample files shipped with the package.
DEFAULT_ROOT = Path(__file__).resolve().parent / "data" / "files"
#: Largest file ``read_file`` returns, in bytes.
MAX_READ_BYTES = 64_000
#: Most paths ``search_files`` lists.
MAX_RESULTS = 100
#: Most directory entries ``search_files`` looks at.
MAX_SCANNED = 20_000
_MAX_PATH_LENGTH = 300
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_DRIVE = re.compile(r"^[A-Za-z]:")


def _check_relative(text: str, what: str) -> PurePosixPath:
    """Refuse anything but a plain relative path; return it parsed."""
    if len(text) > _MAX_PATH_LENGTH:
        raise ToolException(f"The {what} is {len(text)} characters long; the limit is 300.")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise ToolException(f"The {what} contains a NUL or control character; remove it.")
    if "\\" in text:
        raise ToolException(f"The {what} contains a backslash; separate folders with '/'.")
    if _PERCENT_ESCAPE.search(text):
        raise ToolException(
            f"The {what} {text!r} contains a percent-encoded byte; write the path plainly."
        )
    if unicodedata.normalize("NFKC", text) != text:
        raise ToolException(
            f"The {what} {text!r} contains unusual characters (such as full-width dots or "
            "slashes); use plain ASCII punctuation."
        )
    if text.startswith(("/", "~")) or _DRIVE.match(text):
        raise ToolException(
            f"The {what} {text!r} is absolute; give a path relative to the sandbox root, "
            "e.g. 'notes/todo.txt'."
        )
    parsed = PurePosixPath(text)
    if ".." in parsed.parts:
        raise ToolException(f"The {what} {text!r} uses '..'; paths cannot leave the sandbox.")
    return parsed


def _inside(root: Path, path: Path) -> Path:
    resolved = path.resolve()
    if resolved != root and root not in resolved.parents:
        raise ToolException(
            f"{path.relative_to(root).as_posix()!r} leads outside the sandbox (through a "
            "symlink); only files inside it can be read."
        )
    return resolved


def _search(root: Path, pattern: str) -> str:
    pattern = pattern.strip() or "*"
    _check_relative(pattern, "pattern")
    wanted = pattern.lower()
    matches: list[str] = []
    scanned = 0
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs.sort()
        for name in sorted(names):
            scanned += 1
            if scanned > MAX_SCANNED:
                break
            full = Path(folder, name)
            relative = full.relative_to(root).as_posix()
            subject = relative if "/" in wanted else name
            if not fnmatch.fnmatchcase(subject.lower(), wanted):
                continue
            try:
                resolved = _inside(root, full)
            except ToolException:
                continue
            if resolved.is_file():
                matches.append(f"{relative} ({resolved.stat().st_size} bytes)")
    if not matches:
        return f"No file matches {pattern!r}. Use '*' to list every file."
    shown = matches[:MAX_RESULTS]
    more = (
        f"\n(and {len(matches) - len(shown)} more; narrow the pattern)"
        if matches[MAX_RESULTS:]
        else ""
    )
    return f"{len(matches)} file(s) match {pattern!r}:\n" + "\n".join(shown) + more


def _read(root: Path, path: str) -> str:
    relative = _check_relative(path.strip().removeprefix("./"), "path")
    target = root.joinpath(*relative.parts)
    if not target.exists() and not target.is_symlink():
        raise ToolException(f"No file {path!r} in the sandbox; call search_files to list files.")
    resolved = _inside(root, target)
    if not resolved.is_file():
        raise ToolException(f"{path!r} is not a regular file; call search_files to list files.")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(resolved, flags), "rb") as handle:
        data = handle.read(MAX_READ_BYTES + 1)
    if len(data) > MAX_READ_BYTES:
        raise ToolException(
            f"{path!r} is larger than {MAX_READ_BYTES} bytes; it is too big to read whole."
        )
    if b"\x00" in data:
        raise ToolException(f"{path!r} is a binary file; only text files can be read.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolException(f"{path!r} is not UTF-8 text; only UTF-8 files can be read.") from None


@tool(parse_docstring=True)
def search_files(pattern: str) -> str:
    """List the files in the sandbox folder whose names match a glob pattern.

    Args:
        pattern: A glob such as "*.md", "notes/*" or "*todo*"; "*" lists every file. Without a
            "/" it matches file names in every folder.

    Returns:
        The matching paths, relative to the sandbox root, with their sizes.
    """
    return _search(DEFAULT_ROOT, pattern)


@tool(parse_docstring=True)
def read_file(path: str) -> str:
    """Read a UTF-8 text file from the sandbox folder.

    Args:
        path: The file's path relative to the sandbox root, as listed by search_files, e.g.
            "notes/todo.txt".

    Returns:
        The whole text of the file.
    """
    return _read(DEFAULT_ROOT, path)


def make_file_tools(root: str | os.PathLike[str]) -> list[BaseTool]:
    """Return ``search_files`` and ``read_file`` confined to another directory.

    Args:
        root: The sandbox directory; it must exist.

    Returns:
        The two tools, with the same names and schemas as the module-level ones.

    Raises:
        NotADirectoryError: ``root`` is not an existing directory.
    """
    resolved = Path(root).resolve()
    if not resolved.is_dir():
        raise NotADirectoryError(f"sandbox root {str(root)!r} is not an existing directory")
    return [
        search_files.model_copy(update={"func": functools.partial(_search, resolved)}),
        read_file.model_copy(update={"func": functools.partial(_read, resolved)}),
    ]
