"""Lazy re-exports for a package's ``__init__``: names are imported on first use. Pure.

``toolkit`` and ``toolkit.local`` name their public objects at the top but import each module
only when one of its names is asked for, so ``import toolkit`` loads neither LangChain's chat
models nor llama.cpp.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str], names: Sequence[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of a package that re-exports lazily.

    Args:
        package: The package's ``__name__``.
        exports: Each exported name and the module that defines it.
        names: The package's ``__all__``.

    Returns:
        ``(__getattr__, __dir__)``; a name once imported is kept in the package's namespace.
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
