"""Each example tool's schema is pinned in tests/golden/<tool>.json.

The schemas come from the CLI (``toolkit schema tools --json``), so the pinned files are exactly
what a user sees. After an intended change, run ``pytest tests/test_golden.py --update-golden``
and review the diff of tests/golden/ like code.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers import run_toolkit

GOLDEN = Path(__file__).parent / "golden"


def _current_schemas() -> dict[str, str]:
    result = run_toolkit("schema", "tools", "--json", timeout=120)
    assert result.returncode == 0, result.stderr
    schemas = json.loads(result.stdout)
    return {
        s["function"]["name"]: json.dumps(s, indent=2, ensure_ascii=False) + "\n" for s in schemas
    }


def test_tool_schemas_match_golden_files(update_golden: bool) -> None:
    current = _current_schemas()
    assert current, "toolkit schema tools --json returned no tools"
    if update_golden:
        GOLDEN.mkdir(exist_ok=True)
        for stale in set(p.stem for p in GOLDEN.glob("*.json")) - set(current):
            (GOLDEN / f"{stale}.json").unlink()
        for name, text in current.items():
            (GOLDEN / f"{name}.json").write_text(text, encoding="utf-8")
    pinned = {p.stem: p.read_text(encoding="utf-8") for p in GOLDEN.glob("*.json")}
    missing = sorted(set(current) - set(pinned))
    stale = sorted(set(pinned) - set(current))
    changed = sorted(n for n in set(current) & set(pinned) if current[n] != pinned[n])
    assert not (missing or stale or changed), (
        f"golden files differ: missing {missing}, stale {stale}, changed {changed}; "
        "if intended, rerun with --update-golden and review the diff"
    )


def test_every_parameter_of_every_tool_is_described() -> None:
    for name, text in _current_schemas().items():
        function = json.loads(text)["function"]
        assert function["description"], name
        for param, prop in function["parameters"].get("properties", {}).items():
            assert prop.get("description"), f"{name}.{param} has no description"
