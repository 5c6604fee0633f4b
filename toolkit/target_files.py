"""Where a CLI TARGET's source files are, found without importing anything.

A TARGET is split at its last ``:`` when what follows is a dotted name (``tools:get_weather``,
``x.py:TOOLS``). What is left is a path when it ends with ``.py`` or holds a path separator, and a
module name (``tools``, ``pkg.mod``) otherwise; :func:`source_files` also takes any file or
directory that exists on disk as a path. ``toolkit lint`` reads the files found here;
:mod:`toolkit.targets` imports what a TARGET names.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import re
from dataclasses import dataclass
from pathlib import Path

from toolkit.errors import TargetError

__all__ = ["SourceFiles", "display_path", "names_a_path", "source_files", "split_target"]

_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
#: Packages that build tools: an exception raised inside them while importing a target is a
#: tool that cannot be built.
_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})


def split_target(target: str) -> tuple[str, str]:
    """Split ``SOURCE:NAME`` into its source and attribute.

    Args:
        target: A TARGET as typed on the command line.

    Returns:
        The module or path, and the dotted attribute after the last ``:`` ("" when there is
        none, or when what follows the ``:`` is not a dotted name, as in ``C:\\tools.py``).
    """
    head, _, tail = target.rpartition(":")
    if head and _DOTTED.fullmatch(tail):
        return head, tail
    return target, ""


def names_a_path(source: str) -> bool:
    """Whether a TARGET (without its ``:NAME``) is a path rather than a module name.

    Args:
        source: The TARGET's file or module part.

    Returns:
        True when it ends with ``.py`` or holds a path separator.
    """
    return source.endswith(".py") or "/" in source or "\\" in source


def display_path(path: Path) -> str:
    """Show a path relative to the working directory when it is below it.

    Args:
        path: A file.

    Returns:
        The relative path, or the path as given when it is elsewhere.
    """
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# --- Files to read, never importing ----------------------------------------------------------


@dataclass(frozen=True)
class SourceFiles:
    """The files a TARGET names.

    Args:
        files: The ``.py`` files, in order.
        directory: Whether they were found by walking a directory (else one file was named).
        package: Whether that directory is a package (it has ``__init__.py``).
    """

    files: list[Path]
    directory: bool
    package: bool


def _walk(directory: Path) -> list[Path]:
    files = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and d not in _SKIPPED_DIRS and not d.endswith("venv")
        )
        files += [Path(root, n) for n in sorted(names) if n.endswith(".py")]
    return files


def _module_location(name: str) -> Path:
    """Find a module's file or package directory without importing it."""
    parts = name.split(".")
    try:
        spec = importlib.util.find_spec(parts[0])
    except (ImportError, ValueError):
        spec = None
    for index, part in enumerate(parts[1:], start=1):
        locations = list(spec.submodule_search_locations or []) if spec else []
        if not locations:
            break
        spec = importlib.machinery.PathFinder.find_spec(part, locations)
        if spec is None:
            raise TargetError(
                f"no module named {name!r}: {'.'.join(parts[:index])} has no {part!r}"
            )
    if spec is None:
        raise TargetError(
            f"{name!r} is not a file, a directory or an importable module; check the spelling "
            "or run from the directory that contains it"
        )
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    if spec.origin and spec.origin.endswith(".py"):
        return Path(spec.origin)
    raise TargetError(f"module {name!r} has no Python source file to lint ({spec.origin})")


def source_files(target: str) -> SourceFiles:
    """Turn a TARGET into the files to read, without importing anything.

    Args:
        target: A ``.py`` file, a directory (searched recursively, skipping hidden, cache and
            virtualenv directories) or a module name (``tools``, ``pkg.mod``).

    Returns:
        The files, and whether they come from a directory, and from a package.

    Raises:
        TargetError: Nothing of that name exists.
    """
    path = Path(target)
    if not path.exists() and not names_a_path(target) and _DOTTED.fullmatch(target):
        path = _module_location(target)
    if path.is_dir():
        return SourceFiles(_walk(path), directory=True, package=(path / "__init__.py").is_file())
    if path.is_file():
        return SourceFiles([path], directory=False, package=False)
    raise TargetError(f"{target}: no such file or directory")


# --- Objects to use, importing ---------------------------------------------------------------
