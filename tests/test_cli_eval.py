"""``toolkit eval bfcl`` as a subprocess, against a scripted OpenAI-compatible loopback server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers import run_toolkit

Reply = Callable[[dict], dict]

AREA = {
    "name": "geometry.area",
    "description": "Area of a rectangle.",
    "parameters": {
        "type": "dict",
        "properties": {
            "width": {"type": "integer", "description": "Width."},
            "height": {"type": "float", "description": "Height."},
        },
        "required": ["width", "height"],
    },
}


def _call(name: str, arguments: str) -> dict:
    return {"name": name, "arguments": arguments}


def _completion(content: str | None, calls: list[dict]) -> dict:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": f"call_{n}", "type": "function", "function": call}
            for n, call in enumerate(calls)
        ]
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "scripted",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if calls else "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class _Scripted(ThreadingHTTPServer):
    def __init__(self, reply: Reply) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.reply = reply
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most_in_flight = 0


class _Handler(BaseHTTPRequestHandler):
    server: _Scripted

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.server.lock:
            self.server.requests.append(body)
            self.server.in_flight += 1
            self.server.most_in_flight = max(self.server.most_in_flight, self.server.in_flight)
        try:
            reply = self.server.reply(body)
        finally:
            with self.server.lock:
                self.server.in_flight -= 1
        status = reply.pop("status", 400) if "error" in reply else 200
        payload = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        """Keep the test output quiet."""


def _by_question(body: dict) -> dict:
    question = body["messages"][-1]["content"]
    if "slow" in question:
        time.sleep(2.5)
    if "right" in question:
        return _completion(None, [_call("geometry_area", '{"width": 3, "height": 2}')])
    if "wrong" in question:
        return _completion(None, [_call("geometry_area", '{"width": "3", "height": 2}')])
    if "too long" in question:
        error = {"message": "prompt exceeds the context window", "type": "invalid_request_error"}
        return {"error": error}
    if "broken" in question:
        return _completion(None, [_call("geometry_area", '{"width": 3,')])
    return _completion("No tool fits.", [])


@pytest.fixture
def scripted() -> Iterator[_Scripted]:
    server = _Scripted(_by_question)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _write(folder: Path, name: str, rows: list[dict]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    questions = ["right", "wrong", "broken"]
    rows = [
        {
            "id": f"simple_python_{n}",
            "question": [[{"role": "user", "content": f"the {q} one"}]],
            "function": [AREA],
        }
        for n, q in enumerate(questions)
    ]
    answer = [{"geometry.area": {"width": [3], "height": [2.0]}}]
    answers = [{"id": row["id"], "ground_truth": answer} for row in rows]
    _write(tmp_path / "data", "BFCL_v4_simple_python.json", rows)
    _write(tmp_path / "data" / "possible_answer", "BFCL_v4_simple_python.json", answers)
    irrelevant = [
        {**rows[0], "id": "irrelevance_0"},
        {**rows[1], "id": "irrelevance_1", "question": [[{"role": "user", "content": "hi"}]]},
    ]
    _write(tmp_path / "data", "BFCL_v4_irrelevance.json", irrelevant)
    long = [{**rows[0], "id": "live_simple_0-0-0"}, {**rows[0], "id": "live_simple_1-0-0"}]
    long[1]["question"] = [[{"role": "user", "content": "a question too long"}]]
    _write(tmp_path / "data", "BFCL_v4_live_simple.json", long)
    long_answers = [{"id": row["id"], "ground_truth": answer} for row in long]
    _write(tmp_path / "data" / "possible_answer", "BFCL_v4_live_simple.json", long_answers)
    return tmp_path / "data"


def _toolkit(
    *args: str, server: _Scripted | None = None, **env: str
) -> subprocess.CompletedProcess:
    if server is not None:
        env["OPENAI_BASE_URL"] = f"http://127.0.0.1:{server.server_address[1]}/v1"
        env["OPENAI_API_KEY"] = "sk-test-secret-key-1234"
    return run_toolkit("eval", "bfcl", *args, env=env)


def test_table_per_category(scripted: _Scripted, data_dir: Path) -> None:
    done = _toolkit(
        "--data-dir", str(data_dir), "--categories", "simple_python,irrelevance", server=scripted
    )
    assert done.returncode == 0, done.stderr
    rows = {cells[0]: cells for cells in map(str.split, done.stdout.splitlines()) if cells}
    header = ["category", "cases", "passed", "accuracy", "calls", "valid", "latency"]
    assert rows["category"] == header
    assert rows["simple_python"][:6] == ["simple_python", "3", "1", "33.3%", "3", "33.3%"]
    assert rows["irrelevance"][:6] == ["irrelevance", "2", "1", "50.0%", "1", "100.0%"]
    assert rows["all"][:6] == ["all", "5", "2", "40.0%", "4", "50.0%"]
    assert rows["simple_python"][6].endswith("s")
    assert "sk-test-secret" not in done.stdout + done.stderr
    assert len(scripted.requests) == 5
    tools = scripted.requests[0]["tools"]
    assert tools[0]["function"]["name"] == "geometry_area"
    assert tools[0]["function"]["parameters"]["properties"]["height"]["type"] == "number"
    assert all("grammar" not in body for body in scripted.requests)


def test_json_ids_failures_and_no_grammar_field(
    scripted: _Scripted, data_dir: Path, tmp_path: Path
) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("# chosen\nsimple_python_1\n\nsimple_python_2\n", encoding="utf-8")
    done = _toolkit(
        "--data-dir",
        str(data_dir),
        "--ids",
        str(ids),
        "--json",
        "--no-grammar",
        "--save",
        str(tmp_path / "saved.jsonl"),
        server=scripted,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["grammar"] is False and report["categories"] == ["simple_python"]
    assert [case["id"] for case in report["cases"]] == ["simple_python_1", "simple_python_2"]
    wrong, broken = report["cases"]
    assert not wrong["passed"] and "should be integer" in wrong["reason"]
    assert wrong["calls"] == [{"name": "geometry.area", "arguments": {"width": "3", "height": 2}}]
    assert wrong["valid_calls"] == 0
    assert not broken["passed"] and broken["calls"][0]["arguments"] is None
    assert report["summary"][0]["accuracy"] == 0.0
    assert all(body["grammar"] is False for body in scripted.requests)
    saved = (tmp_path / "saved.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in saved] == report["cases"]
    assert "sk-test-secret" not in done.stdout + done.stderr


def test_show_failures_lists_reasons(scripted: _Scripted, data_dir: Path) -> None:
    done = _toolkit(
        "--data-dir",
        str(data_dir),
        "--categories",
        "simple_python",
        "--show-failures",
        "--limit",
        "2",
        server=scripted,
    )
    assert done.returncode == 0, done.stderr
    assert "failed cases" in done.stdout and "simple_python_1" in done.stdout
    assert "simple_python_0 " not in done.stdout.split("failed cases")[1].split("BFCL")[0]


def test_real_bfcl_data_runs_end_to_end(scripted: _Scripted) -> None:
    done = _toolkit("--categories", "simple_python", "multiple", "--limit", "2", server=scripted)
    assert done.returncode == 0, done.stderr
    assert "simple_python" in done.stdout and "multiple" in done.stdout
    assert len(scripted.requests) == 4
    names = {tool["function"]["name"] for body in scripted.requests for tool in body["tools"]}
    assert "math_factorial" in names and not any("." in name for name in names)


def test_a_failed_request_fails_its_case_and_the_run_exits_1(
    scripted: _Scripted, data_dir: Path
) -> None:
    done = _toolkit("--data-dir", str(data_dir), "--categories", "live_simple", server=scripted)
    assert done.returncode == 1, done.stderr
    rows = {cells[0]: cells for cells in map(str.split, done.stdout.splitlines()) if cells}
    assert rows["category"][-1] == "errors"
    assert rows["live_simple"][:4] == ["live_simple", "2", "1", "50.0%"]
    assert rows["live_simple"][-1] == "1"
    report = json.loads(
        _toolkit(
            "--data-dir", str(data_dir), "--categories", "live_simple", "--json", server=scripted
        ).stdout
    )
    failed = report["cases"][1]
    assert "400" in failed["error"] and "context window" in failed["error"]
    assert not failed["passed"] and report["summary"][0]["errors"] == 1


def test_a_timeout_fails_only_its_case(scripted: _Scripted, data_dir: Path, tmp_path: Path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("simple_python_0\nirrelevance_1\n", encoding="utf-8")
    slow = [{"role": "user", "content": "the slow right one"}]
    path = data_dir / "BFCL_v4_simple_python.json"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rows[0]["question"] = [slow]
    _write(data_dir, "BFCL_v4_simple_python.json", rows)
    done = _toolkit(
        "--data-dir",
        str(data_dir),
        "--ids",
        str(ids),
        "--timeout",
        "0.5",
        "--json",
        server=scripted,
    )
    assert done.returncode == 1, done.stderr
    first, second = json.loads(done.stdout)["cases"]
    assert "timed out" in first["error"] and "--timeout" in first["error"]
    assert second["passed"] and second["error"] is None


def test_concurrency_bounds_requests_in_flight_and_keeps_case_order(data_dir: Path) -> None:
    def slow_text(body: dict) -> dict:
        time.sleep(0.4)
        return _completion("No tool fits.", [])

    server = _Scripted(slow_text)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        args = ["--categories", "simple_python", "--limit", "7", "--json"]
        done = _toolkit(*args, "--concurrency", "3", server=server)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 0, done.stderr
    assert server.most_in_flight == 3 and len(server.requests) == 7
    ids = [case["id"] for case in json.loads(done.stdout)["cases"]]
    assert ids == [f"simple_python_{n}" for n in range(7)]


def test_unreachable_endpoint_is_one_clear_error(data_dir: Path) -> None:
    done = _toolkit(
        "--data-dir",
        str(data_dir),
        "--categories",
        "simple_python",
        OPENAI_BASE_URL="http://127.0.0.1:9/v1",
        OPENAI_API_KEY="sk-test-secret-key-1234",
    )
    assert done.returncode == 2
    assert "cannot reach the model endpoint" in done.stderr
    assert "Traceback" not in done.stderr and "sk-test-secret" not in done.stderr


def test_a_refused_key_stops_the_run_without_showing_it(data_dir: Path) -> None:
    def refuse(body: dict) -> dict:
        message = "Incorrect API key provided: sk-test-secret-key-1234"
        return {"error": {"message": message, "type": "invalid_request_error"}, "status": 401}

    server = _Scripted(refuse)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        done = _toolkit("--data-dir", str(data_dir), "--categories", "simple_python", server=server)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 2
    assert "refused the API key" in done.stderr and "OPENAI_API_KEY" in done.stderr
    assert "sk-test-secret" not in done.stdout + done.stderr
    assert len(server.requests) == 1


def test_user_errors_exit_2_with_a_message(data_dir: Path, tmp_path: Path) -> None:
    bad_category = _toolkit("--data-dir", str(data_dir), "--categories", "simple_rust")
    assert bad_category.returncode == 2 and "choose from" in bad_category.stderr
    missing_ids = _toolkit("--ids", str(tmp_path / "none.txt"))
    assert missing_ids.returncode == 2 and "cannot read --ids file" in missing_ids.stderr
    bad_concurrency = _toolkit("--concurrency", "0")
    assert bad_concurrency.returncode == 2 and "--concurrency 0" in bad_concurrency.stderr


def test_missing_package_names_the_install_command() -> None:
    code = (
        "import sys; sys.modules['bfcl_eval'] = None; from toolkit.cli import main; "
        "sys.exit(main(['eval', 'bfcl', '--limit', '1']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, COLUMNS="200"),
    )
    assert done.returncode == 2
    assert "pip install --no-deps bfcl-eval==2026.3.23" in done.stderr


def test_the_embedded_model_runs_offline_with_no_provider() -> None:
    done = _toolkit("--categories", "simple_python", "--limit", "2", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["provider"] == "local" and report["grammar"] is True
    assert [case["id"] for case in report["cases"]] == ["simple_python_0", "simple_python_1"]
    summary = report["summary"][0]
    assert summary["cases"] == 2 and summary["errors"] == 0
    assert summary["calls"] >= 1 and summary["valid_calls"] == summary["calls"]
    assert all(case["latency_s"] > 0 for case in report["cases"])
    names = {call["name"] for case in report["cases"] for call in case["calls"]}
    assert names <= {"calculate_triangle_area", "math.factorial"}


def test_no_grammar_is_accepted_by_the_embedded_server(local_server) -> None:
    done = _toolkit(
        "--categories",
        "simple_python",
        "--limit",
        "1",
        "--no-grammar",
        "--json",
        OPENAI_BASE_URL=local_server.base_url,
        OPENAI_API_KEY=local_server.api_key or "local",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["grammar"] is False and report["summary"][0]["errors"] == 0
    assert report["cases"][0]["calls"] or report["cases"][0]["content"]
