"""``toolkit eval agent``: task files, the checks of a final answer, and runs on an endpoint."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from helpers import run_toolkit

from toolkit.errors import ConfigError
from toolkit.eval.agent_checks import (
    in_language,
    leaked_call,
    recites_results,
    task_problems,
    ungrounded_numbers,
)
from toolkit.eval.agent_tasks import DEV_TASKS, AgentTask, ExpectedCall, load_tasks, task_tools
from toolkit.testing.server import Reply, ScriptedServer, completion, tool_call


def _write(path: Path, *lines: object) -> Path:
    path.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in lines)
        + "\n",
        encoding="utf-8",
    )
    return path


def test_the_dev_set_loads_and_covers_every_kind_in_both_languages() -> None:
    tasks = load_tasks(DEV_TASKS)
    assert len(tasks) >= 40
    kinds = {task.kind for task in tasks}
    assert {"compare", "arithmetic", "chain", "fact", "no-tool", "parallel"} <= kinds
    assert {task.language for task in tasks} >= {"zh", "en"}
    for task in tasks:
        assert task_tools(task), task.id  # every tool reference resolves


def test_yaml_and_jsonl_task_files_read_the_same(tmp_path: Path) -> None:
    task = {"id": "t", "question": "q?", "tools": ["tools:add"], "must": ["\\d"], "calls": []}
    jsonl = _write(tmp_path / "tasks.jsonl", "# a comment", task)
    yaml = tmp_path / "tasks.yaml"
    yaml.write_text("- id: t\n  question: q?\n  tools: [tools:add]\n  must: ['\\d']\n  calls: []\n")
    assert load_tasks(jsonl) == load_tasks(yaml)
    assert load_tasks(jsonl)[0].calls == ()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "tasks.jsonl:1: not a JSON object"),
        ({"tools": []}, "'question' must be a non-empty string"),
        ({"question": "q", "tools": [], "colour": 1}, "unknown keys ['colour']"),
        ({"question": "q", "tools": [], "must": ["("]}, "invalid regex"),
        ({"question": "q", "tools": [], "calls": [{"arguments": {}}]}, "needs a 'name'"),
        ({"question": "q", "tools": [], "max_steps": 0}, "'max_steps' must be"),
    ],
)
def test_a_malformed_task_names_its_line(tmp_path: Path, line: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", "\\[").replace("(", "\\(")):
        load_tasks(_write(tmp_path / "tasks.jsonl", line))


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    task = {"id": "same", "question": "q", "tools": []}
    with pytest.raises(ConfigError, match="two tasks have the id 'same'"):
        load_tasks(_write(tmp_path / "tasks.jsonl", task, task))


def _task(**fields: object) -> AgentTask:
    return AgentTask(id="t", question="q", tools=(), **fields)


def test_the_checks_of_a_final_answer() -> None:
    made = [{"name": "add", "args": {"x": 6, "y": 5}}]
    task = _task(must=("11",), must_not=("摄氏度$",), calls=(ExpectedCall("add", {"x": 6.0}),))
    assert task_problems(task, "总和是11。", made) == []
    assert task_problems(task, "6 摄氏度", made) == [
        "answer does not match '11'",
        "answer matches '摄氏度$'",
    ]
    assert task_problems(task, "11", []) == ["no call add({'x': 6.0})"]
    assert task_problems(_task(calls=()), "hello", made) == ["made 1 call(s) where none was needed"]
    assert task_problems(_task(language="zh"), "The sum is 11", []) == [
        "the answer is not written in the question's language (zh)"
    ]
    assert task_problems(_task(), "a: 6\nb: 5\n11", [], ["a: 6", "b: 5"]) == [
        "the answer only recites the tool results"
    ]


def test_leaks_languages_recitals_and_ungrounded_numbers() -> None:
    assert leaked_call('Sure! {"name": "add", "arguments": {"x": 1}}')
    assert leaked_call("<tool_call>\n{}")
    assert not leaked_call("The answer is {x} in Python's format syntax.")
    assert in_language("北京和西安的气温总和为11摄氏度。", "zh")
    assert not in_language("11", "en") and in_language("It is 11.", "en")
    assert recites_results("北京: 6 °C\n11", ["北京: 6 °C", "11"])
    assert not recites_results("北京和西安的气温总和为11摄氏度。", ["北京: 6 °C", "11"])
    assert ungrounded_numbers("about 1,200 or 7 yuan", ["1200 cents"]) == ["7"]
    # A result rounded to the decimals written is grounded; a whole number near it is not.
    assert ungrounded_numbers("13.3 or 13.33 or 13", ["13.333333333333334"]) == ["13"]
    assert ungrounded_numbers("13.4", ["13.333333333333334"]) == ["13.4"]


def _tasks_file(tmp_path: Path) -> Path:
    tools = ["tools:get_weather", "tools:add"]
    return _write(
        tmp_path / "tasks.jsonl",
        {"id": "one", "question": "北京多少度？", "tools": tools, "must": ["6"], "language": "zh"},
        {"id": "two", "question": "西安多少度？", "tools": tools, "must": ["5"], "language": "zh"},
        {"id": "three", "question": "Sum?", "tools": tools, "must": ["11"], "calls": []},
    )


def test_tasks_run_concurrently_on_an_endpoint_and_are_judged(tmp_path: Path) -> None:
    # Each first request waits until all three tasks have one in flight: with fewer than three
    # tasks running at once the barrier breaks and the replies are errors.
    barrier = threading.Barrier(3, timeout=60)
    weather = {"北京": "北京 (Beijing): 6 °C, sunny", "西安": "西安 (Xi'an): 5 °C, overcast"}

    def reply(request) -> Reply | dict:
        messages = request.json["messages"]
        question = messages[-1]["content"] if messages[0]["role"] == "user" else ""
        if len(messages) == 1:
            try:
                barrier.wait()
            except threading.BrokenBarrierError:
                return Reply.error(500, "the tasks did not run concurrently")
        if len(messages) == 1 and question.startswith(("北京", "西安")):
            return completion(tool_calls=[tool_call("get_weather", {"city": question[:2]})])
        if len(messages) == 1:
            return completion("The sum is 12.")  # wrong, and no call was needed
        result = messages[-1]["content"]
        city = next(c for c in weather if c in result)
        return completion(f"{city}现在{weather[city].split(': ')[1].split(' ')[0]}摄氏度。")

    saved = tmp_path / "runs"
    with ScriptedServer([reply] * 5) as server:
        done = run_toolkit(
            "eval", "agent", str(_tasks_file(tmp_path)), "--base-url", server.base_url,
            "--concurrency", "3", "--json", "--save", str(saved),
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    verdicts = {r["id"]: r["passed"] for r in body["results"]}
    assert verdicts == {"one": True, "two": True, "three": False}
    total = body["summary"][-1]
    assert (total["kind"], total["tasks"], total["passed"]) == ("all", 3, 2)
    three = next(r for r in body["results"] if r["id"] == "three")
    assert three["problems"] == ["answer does not match '11'"]
    assert three["ungrounded"] == ["12"]
    assert sorted(p.name for p in saved.iterdir()) == ["one.json", "three.json", "two.json"]
    one = json.loads((saved / "one.json").read_text(encoding="utf-8"))
    assert [m["role"] for m in one["messages"]] == ["user", "assistant", "tool", "assistant"]
    assert one["model_calls"] == 2 and one["calls"][0]["name"] == "get_weather"


def test_an_unknown_task_id_is_a_clear_error(tmp_path: Path) -> None:
    done = run_toolkit("eval", "agent", str(_tasks_file(tmp_path)), "--ids", "nine")
    assert done.returncode == 2
    assert "--ids: no task has the id 'nine'" in done.stderr
