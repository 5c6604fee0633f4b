"""The public surface: sorted ``__all__`` everywhere, every exported name importable."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

import toolkit
import tools

PACKAGES = ["toolkit", "toolkit.local", "toolkit.testing", "toolkit.bare", "toolkit.eval", "tools"]


def _isort_key(name: str) -> tuple[int, str]:
    """Ruff's RUF022 order: CONSTANTS, then Classes, then functions."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


def _modules() -> list[str]:
    names = []
    for root in (toolkit, tools):
        names.append(root.__name__)
        for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
            if info.name.endswith("__main__"):
                continue
            names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_every_module_all_is_sorted_and_resolves(name: str) -> None:
    module = importlib.import_module(name)
    exported = getattr(module, "__all__", None)
    if exported is None:
        assert name.rsplit(".", 1)[-1].startswith("_") or not hasattr(module, "__path__")
        return
    names = list(exported)
    assert names in (sorted(names), sorted(names, key=_isort_key)), f"{name}.__all__ unsorted"
    for attribute in exported:
        assert hasattr(module, attribute), f"{name}.__all__ names missing {attribute!r}"


@pytest.mark.parametrize("name", PACKAGES)
def test_packages_have_all(name: str) -> None:
    assert hasattr(importlib.import_module(name), "__all__")


def test_top_level_names_resolve_lazily() -> None:
    assert set(toolkit.__all__) == set(toolkit._EXPORTS)
    for name in toolkit.__all__:
        assert getattr(toolkit, name) is not None
    with pytest.raises(AttributeError, match="no_such_name"):
        toolkit.no_such_name  # noqa: B018


def test_import_toolkit_does_not_load_the_model_stack() -> None:
    code = (
        "import sys, toolkit, toolkit.lint, toolkit.schema;"
        "print(any(m.startswith(('llama_cpp', 'langchain_openai')) for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_py_typed_is_shipped() -> None:
    from importlib.resources import files

    assert files("toolkit").joinpath("py.typed").is_file()
