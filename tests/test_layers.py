"""The embedded model's layers: a lower layer never imports a higher one, pure modules stay pure.

``toolkit/local`` is four folders, lowest first: ``format`` (pure), ``runtime`` (llama.cpp),
``decision`` (text or call) and ``server`` (HTTP). Imports are read from the source (type-only
imports included), so the rule holds for every path through the code, not just the ones a test
happens to run; and each pure module is imported alone in a fresh interpreter to check that it
loads neither llama.cpp nor a web server.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import toolkit.local

LAYERS = ("format", "runtime", "decision", "server")
ROOT = Path(toolkit.local.__file__).parent
HEAVY = ("llama_cpp", "uvicorn", "fastapi", "starlette")


def _modules(layer: str) -> list[str]:
    return sorted(
        f"toolkit.local.{layer}." + path.stem
        if path.stem != "__init__"
        else f"toolkit.local.{layer}"
        for path in (ROOT / layer).glob("*.py")
    )


PURE = [
    *_modules("format"),
    *_modules("decision"),
    "toolkit.local",
    "toolkit.local.server",
    "toolkit.local.server.protocol",
    "toolkit.local.server.schemas",
    "toolkit.wire",
]


def _imported(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[:2] != ["toolkit", "local"] or len(parts) < 3:
        return None
    return LAYERS.index(parts[2]) if parts[2] in LAYERS else None


def test_every_module_of_local_sits_in_a_layer() -> None:
    loose = [p.name for p in ROOT.glob("*.py") if p.name != "__init__.py"]
    assert loose == []
    assert sorted(
        p.name for p in ROOT.iterdir() if p.is_dir() and p.name != "__pycache__"
    ) == sorted(LAYERS)


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_only_itself_and_the_layers_below(layer: str) -> None:
    own = LAYERS.index(layer)
    offences = []
    for path in sorted((ROOT / layer).glob("*.py")):
        for module in _imported(path):
            other = _layer_of(module)
            if other is not None and other > own:
                offences.append(f"{layer}/{path.name} imports {module}")
            if module.startswith("toolkit.") and _layer_of(module) is None:
                if module.split(".")[1] not in ("config", "errors", "wire", "local"):
                    offences.append(f"{layer}/{path.name} imports {module} (outside local/)")
    assert offences == []


@pytest.mark.parametrize("module", PURE)
def test_a_pure_module_loads_neither_llama_cpp_nor_a_web_server(module: str) -> None:
    code = (
        f"import sys, {module};"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"{module} loads {out.stdout.strip()}"


def test_the_check_can_fail() -> None:
    code = "import sys, toolkit.local.runtime.engine; print('llama_cpp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
