"""The tutorials in ``notebooks/`` run top to bottom on the embedded model, and their pairs agree.

Each notebook is executed in a fresh ``python3`` kernel (this virtualenv's ipykernel) whose
environment carries no provider configuration: ``TOOLKIT_PROVIDER=local`` and a missing ``.env``
file, so every model cell talks to the embedded server on loopback, which the kernel starts once
(it is per process). Any cell error fails the test. Each ``.ipynb`` must also match its jupytext
``.py`` copy cell for cell and be committed without outputs.
"""

from __future__ import annotations

import os
from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from toolkit.config import ENV_VARS

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS_DIR = ROOT / "notebooks"
TUTORIALS = [
    "01_tools_basics",
    "02_schemas_and_docstrings",
    "03_bind_tools_and_the_four_steps",
    "04_when_models_get_it_wrong",
    "05_under_the_hood",
]
#: Seconds one cell may run (a model call takes seconds; this only catches a hang).
CELL_TIMEOUT = 600
#: Seconds the kernel may take to start.
STARTUP_TIMEOUT = 120
#: Appended to each executed copy: the embedded servers the kernel started, by thread name.
_SERVER_COUNT_CELL = (
    "import threading\n"
    "print(sum(t.name.startswith('toolkit-server-') for t in threading.enumerate()))"
)
#: CPU threads for the embedded model, read before the test fixtures clear the environment: a
#: property of the machine running the suite, not configuration under test. Unset, the kernels
#: use one thread: llama.cpp's threads spin while they wait, and on a machine whose cores are
#: busy with other work (pytest, other kernels) two threads were measured 15x slower than one.
_MACHINE_THREADS = os.environ.get("TOOLKIT_THREADS") or "1"
#: Variables that would send the kernel to the network (tracing) or to a configured provider.
_FOREIGN_PREFIXES = ("LANGCHAIN_", "LANGSMITH_")


def _kernel_env(tmp_path: Path) -> dict[str, str]:
    """The kernel's environment: this one minus every provider setting, plus the local model."""
    env = {
        name: value
        for name, value in os.environ.items()
        if (name not in ENV_VARS or name == "TOOLKIT_CACHE_DIR")
        and not name.startswith(_FOREIGN_PREFIXES)
    }
    env["TOOLKIT_PROVIDER"] = "local"
    env["TOOLKIT_ENV_FILE"] = str(tmp_path / "no.env")
    env["TOOLKIT_THREADS"] = _MACHINE_THREADS
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def _cells(notebook: nbformat.NotebookNode) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source) for cell in notebook.cells]


def test_every_tutorial_has_both_files() -> None:
    found = sorted(p.stem for p in NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))
    assert found == TUTORIALS
    for name in TUTORIALS:
        assert (NOTEBOOKS_DIR / f"{name}.py").is_file(), f"{name}.py (jupytext pair) is missing"


@pytest.mark.parametrize("name", TUTORIALS)
def test_pair_is_in_sync_and_stripped(name: str) -> None:
    notebook = nbformat.read(NOTEBOOKS_DIR / f"{name}.ipynb", as_version=4)
    text = jupytext.read(NOTEBOOKS_DIR / f"{name}.py")
    assert _cells(notebook) == _cells(text), (
        f"{name}.ipynb and {name}.py differ; run `jupytext --sync notebooks/{name}.py`"
    )
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, f"{name} has no code cells"
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{name} cell {index} has committed outputs"
            assert cell.execution_count is None, f"{name} cell {index} has an execution count"
    first, last = notebook.cells[0], notebook.cells[-1]
    assert first.cell_type == "markdown" and "teaches" in first.source
    assert last.cell_type == "markdown" and "## Recap" in last.source


@pytest.mark.parametrize("name", TUTORIALS)
def test_notebook_runs_top_to_bottom(name: str, tmp_path: Path) -> None:
    notebook = nbformat.read(NOTEBOOKS_DIR / f"{name}.ipynb", as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(_SERVER_COUNT_CELL))
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=CELL_TIMEOUT,
        startup_timeout=STARTUP_TIMEOUT,
        allow_errors=False,
        resources={"metadata": {"path": str(NOTEBOOKS_DIR)}},
    )
    try:
        client.execute(env=_kernel_env(tmp_path))
    except CellExecutionError as exc:
        pytest.fail(f"{name}: a cell failed:\n{exc}", pytrace=False)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in code), f"{name}: some cells did not run"
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert errors == []
    servers = "".join(o.get("text", "") for o in code[-1].outputs if o.output_type == "stream")
    assert int(servers) <= 1, f"{name} started {servers.strip()} embedded servers, expected one"
