"""The embedded server is safe to run: loopback by default, keyed off loopback, bounded, robust.

Covers binding (loopback unless a key is set), authentication in the OpenAI error shape, the
request body limit (declared and streamed bodies), 20 concurrent requests, and a missing,
garbage, corrupt or truncated model file refused at start with one line naming the fix.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from helpers import clean_env
from pydantic import SecretStr

from toolkit.commands.serve import is_loopback
from toolkit.config import LOCAL_MODEL_NAME, Settings, load_settings
from toolkit.local.runtime.weights import resolve_model_path
from toolkit.local.server.app import MAX_BODY_BYTES
from toolkit.local.server.runner import EmbeddedServer

ROOT = Path(__file__).resolve().parents[1]
KEY = "hardening-key-5d1c"


def _serve(*args: str, **env_vars: str) -> subprocess.CompletedProcess:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", str(ROOT)),
        "TOOLKIT_ENV_FILE": str(ROOT / "tests" / "no-such.env"),
        **env_vars,
    }
    if "TOOLKIT_CACHE_DIR" in os.environ:
        env["TOOLKIT_CACHE_DIR"] = os.environ["TOOLKIT_CACHE_DIR"]
    return subprocess.run(
        [sys.executable, "-m", "toolkit", "serve", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _listening_addresses(port: int) -> set[str]:
    """Local addresses (hex, as in /proc/net/tcp*) with a socket listening on ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            address, hex_port = fields[1].split(":")
            if int(hex_port, 16) == port and fields[3] == "0A":  # 0A: LISTEN
                found.add(address)
    return found


def _error_shape(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["message"]
    return error


@pytest.fixture(scope="module")
def keyed(local_server: EmbeddedServer) -> Iterator[EmbeddedServer]:
    settings = Settings(server_api_key=SecretStr(KEY))
    with EmbeddedServer(settings, engine=local_server.engine) as server:
        yield server


def test_the_server_listens_on_loopback_only_by_default(local_server: EmbeddedServer) -> None:
    assert local_server.base_url.startswith("http://127.0.0.1:")
    assert _listening_addresses(local_server.port) == {"0100007F"}  # 127.0.0.1, nothing else


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("127.0.0.2", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.0.2.10", False),
        ("example.org", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10"])
def test_serving_off_loopback_without_a_key_is_refused(host: str) -> None:
    done = _serve("--host", host, "--port", "8765")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert f"refusing to serve on {host!r} without an API key" in lines[0]
    assert "TOOLKIT_SERVER_API_KEY" in lines[0] and "--host 127.0.0.1" in lines[0]


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": KEY}, {"Authorization": "Bearer"}],
    ids=["none", "wrong", "no_bearer", "empty"],
)
@pytest.mark.parametrize("route", ["GET /models", "POST /chat/completions"])
def test_without_the_right_key_every_v1_route_is_401(
    keyed: EmbeddedServer, headers: dict, route: str
) -> None:
    method, path = route.split()
    body = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 2}
    response = httpx.request(
        method, keyed.base_url + path, headers=headers, json=body if method == "POST" else None
    )
    error = _error_shape(response, 401)
    assert (error["type"], error["code"]) == ("authentication_error", "invalid_api_key")
    assert "TOOLKIT_SERVER_API_KEY" in error["message"]


def test_with_the_key_requests_are_served(keyed: EmbeddedServer) -> None:
    body = {"messages": [{"role": "user", "content": "Say hi."}], "max_tokens": 4}
    response = httpx.post(
        keyed.base_url + "/chat/completions",
        headers={"Authorization": f"Bearer {KEY}"},
        json=body,
        timeout=120,
    )
    assert response.status_code == 200
    assert response.json()["choices"][0]["message"]["role"] == "assistant"


def test_an_oversized_body_is_413_whether_declared_or_streamed(local_server) -> None:
    url = local_server.base_url + "/chat/completions"
    big = b'{"messages": [{"role": "user", "content": "' + b"x" * (MAX_BODY_BYTES + 10) + b'"}]}'

    def pieces() -> Iterator[bytes]:  # no Content-Length: the server must count as it reads
        for start in range(0, len(big), 1 << 20):
            yield big[start : start + (1 << 20)]

    declared = httpx.post(url, content=big, headers={"Content-Type": "application/json"})
    streamed = httpx.post(url, content=pieces(), headers={"Content-Type": "application/json"})
    for response in (declared, streamed):
        error = _error_shape(response, 413)
        assert f"{MAX_BODY_BYTES:,} bytes" in error["message"]
    # the server is still healthy afterwards
    assert httpx.get(local_server.base_url + "/models").status_code == 200


def test_twenty_concurrent_requests_are_all_answered(local_server: EmbeddedServer) -> None:
    url = local_server.base_url + "/chat/completions"
    results: dict[int, httpx.Response | BaseException] = {}

    def ask(n: int) -> None:
        body = {"messages": [{"role": "user", "content": f"Repeat: {n}"}], "max_tokens": 3}
        try:
            results[n] = httpx.post(url, json=body, timeout=300)
        except BaseException as exc:  # recorded, then reported by the assertion below
            results[n] = exc

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    statuses = {n: getattr(r, "status_code", repr(r)) for n, r in results.items()}
    assert statuses == dict.fromkeys(range(20), 200)
    for response in results.values():
        assert response.json()["choices"][0]["finish_reason"] in {"stop", "length"}
    assert httpx.get(local_server.base_url + "/models").status_code == 200


def _garbage(path: Path) -> Path:
    path.write_bytes(os.urandom(4096))
    return path


def _corrupt(path: Path) -> Path:
    path.write_bytes(b"GGUF\x03\x00\x00\x00" + os.urandom(65536))
    return path


def _truncated(path: Path) -> Path:
    shipped = resolve_model_path(load_settings(env_file="", environ=dict(os.environ)))
    with shipped.open("rb") as source:
        path.write_bytes(source.read(2_000_000))
    return path


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda path: path, "does not exist or is not a file"),
        (_garbage, "is not a GGUF file"),
        (_corrupt, "llama.cpp cannot load"),
        (_truncated, "llama.cpp cannot load"),
    ],
    ids=["missing", "garbage", "corrupt", "truncated"],
)
def test_a_bad_model_file_is_refused_at_start_in_one_line(
    tmp_path: Path, make, expected: str
) -> None:
    path = make(tmp_path / "model.gguf")
    done = _serve("--port", "8766", TOOLKIT_MODEL_PATH=str(path))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert expected in lines[0] and str(path) in lines[0]
    assert "TOOLKIT_MODEL_PATH" in lines[0]  # the setting to fix


def test_a_bad_model_flag_is_refused_at_start_in_one_line(tmp_path: Path) -> None:
    path = _corrupt(tmp_path / "flagged.gguf")
    done = _serve("--port", "8766", "--model", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert f"llama.cpp cannot load '{path}'" in done.stderr


def test_serve_names_the_embedded_model_when_a_provider_is_configured_for_clients() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = clean_env(OPENAI_API_KEY="sk-for-the-clients-7f3e")
    server = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner = next(line for line in server.stderr if "serving" in line)
        listed = httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=30).json()
    finally:
        server.terminate()
        server.wait(30)
    assert f"serving {LOCAL_MODEL_NAME} at http://127.0.0.1:{port}/v1" in banner
    assert [model["id"] for model in listed["data"]] == [LOCAL_MODEL_NAME]
