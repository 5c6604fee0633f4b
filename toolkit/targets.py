"""What a CLI TARGET names: one reading of "module, file, directory or ``module:NAME``".

Every verb that takes a TARGET reads it here, in one of two ways:

* :func:`source_files` for ``toolkit lint``: the ``.py`` files to read, found without importing
  anything (:mod:`toolkit.target_files`, which the linter uses directly);
* :func:`load_targets` for ``toolkit schema``, ``run`` and ``prompt``: the tool objects, found by
  importing the module or file.

A TARGET is split at its last ``:`` when what follows is a dotted name (``tools:get_weather``,
``x.py:TOOLS``). What is left is a path when it ends with ``.py`` or holds a path separator, and a
module name (``tools``, ``pkg.mod``) otherwise; :func:`source_files` also takes any file or
directory that exists on disk as a path.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
import traceback
from pathlib import Path

from langchain_core.tools import BaseTool

from toolkit.errors import TargetError
from toolkit.lint.explain import explain_file
from toolkit.target_files import (
    SourceFiles,
    display_path,
    names_a_path,
    source_files,
    split_target,
)

__all__ = [
    "SourceFiles",
    "display_path",
    "import_from_working_directory",
    "load_targets",
    "source_files",
    "split_target",
]

#: Packages whose frames mean LangChain (or pydantic under it) refused a tool while it was built.
_TOOL_BUILDERS = ("langchain_core", "langchain", "pydantic")


def import_from_working_directory() -> None:
    """Let module TARGETs import from the working directory, as under ``python -m toolkit``.

    The ``toolkit`` console script starts with its own directory on ``sys.path``, not the
    working one; this puts the working directory first unless it (or ``""``) is there already.
    """
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)


def _langchain_caller(exc: BaseException) -> str | None:
    """The file whose top-level code called into LangChain when it raised, if it did.

    That is a tool built at import time (``@tool(parse_docstring=True)`` on a bad docstring).
    """
    libraries = tuple(_package_dir(name) for name in _TOOL_BUILDERS)
    frames = traceback.extract_tb(exc.__traceback__)
    for index, frame in enumerate(frames):
        if frame.filename.startswith(tuple(d for d in libraries if d)):
            callers = [f.filename for f in frames[:index] if f.filename.endswith(".py")]
            return callers[-1] if callers else None
    return None


def _package_dir(name: str) -> str | None:
    spec = importlib.util.find_spec(name)
    locations = list(spec.submodule_search_locations or []) if spec else []
    return os.path.join(locations[0], "") if locations else None


def _import_error(what: str, exc: BaseException) -> TargetError:
    if isinstance(exc, SyntaxError):
        where = f"{exc.filename or what}:{exc.lineno or 0}"
        return TargetError(f"{where}: syntax error: {exc.msg}")
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    message = f"importing {what} failed: {type(exc).__name__}" + (f": {detail}" if detail else "")
    caller = _langchain_caller(exc)
    if caller is not None:
        explanation = explain_file(caller)
        if explanation is not None:
            message += f" ({explanation.summary})"
    return TargetError(message)


def _import_file(path: Path) -> object:
    resolved = path.resolve()
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:10]
    name = f"_toolkit_target_{resolved.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise TargetError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(resolved.parent))
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        del sys.modules[name]
        raise _import_error(str(path), exc) from None
    finally:
        sys.path.remove(str(resolved.parent))
    return module


def _import_module(name: str) -> object:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            raise TargetError(
                f"{name}: no such module, file or directory; pass a module name that can be "
                "imported from here, a path to a .py file, or module:function"
            ) from None
        raise _import_error(name, exc) from None
    except (Exception, SystemExit) as exc:
        raise _import_error(name, exc) from None


def _defined_here(obj: object, module: object) -> bool:
    origin = obj.func or obj.coroutine if isinstance(obj, BaseTool) else obj
    owner = getattr(inspect.unwrap(origin), "__module__", None) if origin is not None else None
    if owner is None:
        return isinstance(obj, BaseTool)
    prefix = module.__name__
    return owner == prefix or (hasattr(module, "__path__") and owner.startswith(prefix + "."))


def _collect(module: object) -> list[object]:
    listed = getattr(module, "ALL_TOOLS", None)
    if isinstance(listed, (list, tuple)):
        return list(listed)
    members = [v for k, v in vars(module).items() if not k.startswith("_")]
    tools = [v for v in members if isinstance(v, BaseTool) and _defined_here(v, module)]
    if tools:
        return tools
    return [v for v in members if inspect.isfunction(v) and _defined_here(v, module)]


def load_targets(target: str) -> list[object]:
    """Import the tools a TARGET names.

    Args:
        target: A module name (``tools``), a file (``path/to/x.py``, imported under a unique
            module name with its directory on ``sys.path``), or either followed by
            ``:attribute`` (``tools:get_weather``, ``x.py:TOOLS``). A module or file gives its
            ``ALL_TOOLS`` list if it has one, else the ``BaseTool`` objects defined in it, else
            its public functions; an attribute gives that object (or the items of a list).

    Returns:
        The tool-like objects, in definition order.

    Raises:
        TargetError: Not found, a syntax error (with ``file:line``), or an exception while
            importing (its type and message).
    """
    source, attribute = split_target(target)
    path = Path(source)
    if names_a_path(source):
        if path.is_dir():
            raise TargetError(f"{source} is a directory: pass a .py file or a module name")
        if not path.is_file():
            raise TargetError(f"{source}: no such file")
        module = _import_file(path)
    else:
        module = _import_module(source)
    if not attribute:
        found = _collect(module)
        if not found:
            raise TargetError(f"{target} defines no tools (no ALL_TOOLS, BaseTool or function)")
        return found
    obj: object = module
    for part in attribute.split("."):
        if not hasattr(obj, part):
            names = ", ".join(sorted(k for k in vars(module) if not k.startswith("_")))
            raise TargetError(f"{source} has no attribute {attribute!r}; it defines: {names}")
        obj = getattr(obj, part)
    return list(obj) if isinstance(obj, (list, tuple)) else [obj]
