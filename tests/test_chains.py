"""Calls that take a result's place: a chain's later step written too soon (decision.chains)."""

from __future__ import annotations

import json

import pytest

from toolkit.local.decision.chains import (
    chinese_links,
    doubled_in_place,
    failed_step_to_resume,
    fields_in_place,
    fields_of_one_record,
    first_step_for,
    is_value,
    kind_named,
    linked_names,
    named_next_step,
    number_parameters,
    other_field,
    results_in_place,
    says_its_kind,
    spent_numbers,
    takes_a_result_place,
    texts_in_place,
)
from toolkit.local.decision.known import kind_lookups_skipped, known_names, refused_kind_named
from toolkit.local.decision.numbers import magnitude, stated_times
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import turn_results
from toolkit.local.decision.records import (
    asked_number,
    asked_text,
    labelled_value,
    record_name,
    stem,
)
from toolkit.local.decision.turn import (
    CallJudge,
    failed_off_the_question,
    results_combined,
    untried_after_failures,
    unused_numbers,
)
from toolkit.local.format.job import ChatJob

_DIVIDE = ("divide", {"a": 144, "b": 12})


@pytest.mark.parametrize(
    ("tool", "arguments", "earlier", "question", "taken"),
    [
        # the division's 144 in the place of its result, with the step's own 7
        ("add", {"x": 144, "y": 7}, [_DIVIDE], "Compute 144 divided by 12, then add 7.", True),
        # a bare name passes no meaning on: multiply's y=6 is not subtract's y
        (
            "subtract",
            {"x": 27, "y": 6},
            [("multiply", {"x": 15, "y": 6})],
            "先算 15 乘以 6，再减去 27。",
            True,
        ),
        # the same inputs asked of another tool: nothing of its own
        (
            "multiply",
            {"x": 3, "y": 4},
            [("add", {"x": 3, "y": 4})],
            "sum and product of 3, 4",
            False,
        ),
        # the same quantity under the same meaningful name
        (
            "cone_mass",
            {"radius": 10, "height": 30, "density": 5.2},
            [("cone_volume", {"radius": 10, "height": 30})],
            "a cone of radius 10 and height 30, density 5.2",
            False,
        ),
        # the question writes the 3 twice: one for each call
        (
            "wave_velocity",
            {"frequency": 50, "wavelength": 3},
            [("final_velocity", {"acceleration": 3, "time": 5})],
            "accelerating at 3 m/s^2 for 5 s; a wave of 50 Hz and wavelength 3 m",
            False,
        ),
        # the same tool again (a parallel call varying one value) is no chain
        ("divide", {"a": 144, "b": 6}, [_DIVIDE], "144 divided by 12, and by 6", False),
        # a result used, not a spent number
        (
            "multiply",
            {"x": 5, "y": 8},
            [("add", {"x": 5, "y": 3})],
            "5 + 3, then 5 times it",
            False,
        ),
    ],
)
def test_a_call_takes_a_result_place(tool, arguments, earlier, question, taken):
    assert takes_a_result_place(tool, arguments, earlier, question) is taken


def test_a_number_the_call_repeats_itself_is_spent():
    earlier = [("power", {"base": 3, "exponent": 4})]
    question = "先算 3 的 4 次方，再加上 19。"
    spent = spent_numbers("add", {"x": 19, "y": 19}, earlier, question)
    assert spent == [("y", 19.0, None)]
    assert results_in_place({"x": 19, "y": 19}, spent, ["81.0"]) == {"x": 19, "y": 81}
    # stated twice, used twice: nothing spent
    assert not takes_a_result_place("add", {"x": 100, "y": 100}, [], "100 g and 100 g")


def test_spent_numbers_name_their_spender():
    earlier = [("get_weather", {"city": "北京"}), _DIVIDE]
    question = "144 divided by 12, then add 7"
    assert spent_numbers("add", {"x": 144, "y": 7}, earlier, question) == [("x", 144.0, 1)]


@pytest.mark.parametrize(
    ("result", "replaced"),
    [
        ("12.0", {"x": 12, "y": 7}),
        ("The quotient is 12.5", {"x": 12.5, "y": 7}),
        ("哈尔滨 (Harbin): -15 °C, snow", {"x": -15, "y": 7}),
        ("2026-11-24 (Tuesday)", None),  # three numbers: which one?
        ("no number", None),
        (None, None),  # no result yet
    ],
)
def test_the_spenders_result_takes_the_place(result, replaced):
    spent = [("x", 144.0, 0)]
    assert results_in_place({"x": 144, "y": 7}, spent, [result]) == replaced


def test_results_in_place_keeps_the_order_and_refuses_numbers_inside_lists():
    spent = [("x", 144.0, 0)]
    assert list(results_in_place({"y": 7, "x": 144}, spent, ["12"]) or {}) == ["y", "x"]
    assert results_in_place({"x": [144, 7]}, spent, ["12"]) is None
    assert results_in_place({"x": 144}, [], ["12"]) is None


def test_numbers_and_their_parameters():
    arguments = {"a": 1, "b": [2, 3.5], "c": {"d": -4}, "e": "5", "f": True}
    assert list(number_parameters(arguments)) == [("a", 1.0), ("b", 2.0), ("b", 3.5), ("d", 4.0)]
    assert stated_times(1200, "1,200 cents and 1200 more, not 11200") == 2
    assert stated_times(3, "3 m/s^2 and 3.5 m, 3") == 2


def _turn(question: str, arguments: str, result: str) -> list[dict]:
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": arguments}}
    return [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": result},
    ]


def test_numbers_still_waiting_for_a_step():
    chain = _turn("Add 17 and 25, then multiply the result by 3.", '{"x": 17, "y": 25}', "42")
    assert unused_numbers(chain) == [3.0]
    # a percentage is one number in either spelling
    assert unused_numbers(_turn("15% of 240?", '{"value": 240, "percent": 15}', "36.0")) == []
    assert unused_numbers(_turn("15% of 240?", '{"value": 240, "rate": 0.15}', "36.0")) == []
    assert unused_numbers(_turn("15% of 240?", '{"value": 240}', "?")) == [0.15, 15.0]


def test_a_call_asking_another_tool_the_same_after_the_answer_is_there():
    tools = _tools("percent_of", "multiply")
    asked = _turn("What is 15% of 240?", '{"value": 240, "percent": 15}', "36.0")
    asked[1]["tool_calls"][0]["function"]["name"] = "percent_of"
    again = {"function": {"name": "multiply", "arguments": '{"x": 240, "y": 15}'}}
    judge = CallJudge(ChatJob(messages=asked, tools=tools), ToolPolicy(), auto=True)
    assert judge.asks_again(again) and judge.rejected(again)
    uses_result = {"function": {"name": "multiply", "arguments": '{"x": 36, "y": 2}'}}
    assert not judge.asks_again(uses_result)
    # while a number of the question still waits, it may be the next step
    waiting = _turn("15% of 240, times 3?", '{"value": 240, "percent": 15}', "36.0")
    judge = CallJudge(ChatJob(messages=waiting, tools=tools), ToolPolicy(), auto=True)
    assert not judge.asks_again(again)


def _tools(*names: str) -> list[dict]:
    """Offered tools with these names and no parameters the judge needs to read."""
    return [
        {"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
        for n in names
    ]


def _steps(question: str, *steps: tuple[list[tuple[str, str]], list[str]]) -> list[dict]:
    """A turn of steps, each its calls ``(name, arguments)`` and their results."""
    messages: list[dict] = [{"role": "user", "content": question}]
    for n, (calls, results) in enumerate(steps):
        ids = [f"c{n}{i}" for i in range(len(calls))]
        messages.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"id": i, "type": "function", "function": {"name": f, "arguments": a}}
                    for i, (f, a) in zip(ids, calls, strict=True)
                ],
            }
        )
        messages += [
            {"role": "tool", "tool_call_id": i, "content": r}
            for i, r in zip(ids, results, strict=True)
        ]
    return messages


def test_a_last_step_that_combined_the_results_before_it():
    lookups = (
        [("get_weather", '{"city": "北京"}'), ("get_weather", '{"city": "西安"}')],
        ["北京 (Beijing): 6 °C, sunny", "西安 (Xi'an): 5 °C, overcast"],
    )
    summed = ([("add", '{"x": 6, "y": 5}')], ["11"])
    assert results_combined(_steps("计算一下北京和西安的气温的总和", lookups, summed))
    # the first lookups combine nothing: nothing came before them
    assert not results_combined(_steps("计算一下北京和西安的气温的总和", lookups))
    # a third temperature no call took yet is still to be combined
    three = (
        [("get_weather", '{"city": "北京"}')] * 3,
        ["北京: 6 °C", "西安: 5 °C", "上海: 9 °C"],
    )
    assert not results_combined(_steps("北京、西安和上海的气温总和", three, summed))
    # a number of the question no step used keeps the turn going
    assert not results_combined(_steps("北京和西安的气温总和再乘以 3", lookups, summed))
    # a step that takes only what the question gave combines no result
    converted = ([("to_fahrenheit", '{"celsius": 20}')], ["68"])
    looked = ([("get_weather", '{"city": "Paris"}')], ["Paris: 20 °C"])
    assert not results_combined(_steps("Paris is 20 °C; in F?", looked, converted))
    # a text value only a result gave is combined too
    department = ([("department_of", '{"person": "Alice"}')], ["Sales"])
    head = ([("head_of", '{"department": "Sales"}')], ["Bob"])
    assert results_combined(_steps("Who heads Alice's department?", department, head))


def test_a_repeated_call_takes_the_result_of_the_call_that_took_its_value():
    earlier = [("get_manager", {"employee": "Carol"}), ("get_email", {"person": "Carol"})]
    results = ["Dave", "Error: tool 'get_email' failed: No email for 'Carol'."]
    moved = texts_in_place("get_email", {"person": "Carol"}, earlier, results)
    assert moved == {"person": "Dave"}
    # the same parameter name is the same value asked of another tool, not a result's place
    same = [("get_phone", {"person": "Carol"})]
    assert texts_in_place("get_email", {"person": "Carol"}, same, ["Dave"]) is None
    # a result that is a reading, an error or a value some call already used takes no place
    for result in ("北京 (Beijing): 6 °C, sunny", "Error: no such employee", "Carol"):
        assert texts_in_place("get_email", {"person": "Carol"}, earlier[:1], [result]) is None
    assert is_value("李强") and is_value("Sales") and not is_value("6 °C, sunny")


def test_a_record_gives_the_value_labelled_for_a_parameter():
    record = (
        "竹简 (Bamboo Scrolls): 2-5 players, about 40 minutes, 199 yuan, designer: 周岚 (Zhou Lan)"
    )
    assert labelled_value(record, "designer_name") == "周岚"
    assert (
        labelled_value('{"title": "Dune", "author": "Frank Herbert"}', "author") == "Frank Herbert"
    )
    assert labelled_value('{"book": {"authors": ["Ann Lee"]}}', "author_name") == "Ann Lee"
    # a word that says nothing of what the parameter holds, a number, an error: no value
    assert labelled_value('{"name": "Dune", "author": "Frank Herbert"}', "name") is None
    assert labelled_value("pages: 412, author: Frank Herbert", "pages") is None
    assert labelled_value("Error: designer: unknown", "designer") is None
    assert labelled_value(record, "city") is None


def test_the_words_a_record_gives_under_the_label_a_question_says():
    centre = (
        "Name: Greyfeather Falconry Centre (灰羽猎鹰中心)\nopened: 1992\nbirds: 21\n"
        "head falconer: Tobias Venn (托比亚斯·文恩)\ncandles from: Wickmoor Chandlery\n"
        "town: Millbeck"
    )
    tools = ["get_falconry_centre", "get_windmill"]
    ignore = {w for t in tools for w in t.split("_")}
    question = "Old Nell's Windmill pays a falconry centre. Who's the head falconer at that place?"
    assert asked_text(centre, question, ignore) == "Tobias Venn"
    assert asked_text(centre, "Which town is Greyfeather in?", ignore) == "Millbeck"
    assert asked_text(centre, "Where do its candles come from?", ignore) == "Wickmoor Chandlery"
    # every word of the label is said ("falconer" alone is not "head falconer"), no number
    assert asked_text(centre, "Who is the falconer there?", ignore) is None
    assert asked_text(centre, "When was it opened?", ignore) is None
    # two labels said: no one answer; an error, JSON
    assert asked_text("town: Ely\nhead town: Ash", "Which head town?", ignore) is None
    assert asked_text("Error: head falconer unknown", question, ignore) is None
    assert asked_text('{"designer": "Zhou Lan", "year": 1990}', "Who was the designer?") == (
        "Zhou Lan"
    )


def test_a_step_asked_first_of_the_wrong_value_is_resumed_with_the_records_value():
    record = "竹简 (Bamboo Scrolls): 199 yuan, designer: 周岚 (Zhou Lan)"
    calls = [
        ("get_designer_hometown", {"designer_name": "竹简"}),
        ("get_board_game", {"title": "竹简"}),
    ]
    results = ["Error: No designer named '竹简' was found.", record]
    resumed = failed_step_to_resume(calls, results, [True, False])
    assert resumed == ("get_designer_hometown", {"designer_name": "周岚"})
    # once the failed tool is called again, or when the later call failed too, nothing is resumed
    again = [*calls, ("get_designer_hometown", {"designer_name": "周岚"})]
    assert failed_step_to_resume(again, [*results, "Hangzhou"], [True, False, False]) is None
    assert failed_step_to_resume(calls, results, [True, True]) is None
    # a later call that took another value, or a record with nothing for the parameter: none
    other = [calls[0], ("get_board_game", {"title": "铜峡谷"})]
    assert failed_step_to_resume(other, results, [True, False]) is None
    bare = ["Error: No designer named '竹简' was found.", "竹简: 199 yuan, 2-5 players"]
    assert failed_step_to_resume(calls, bare, [True, False]) is None


def test_a_retried_failure_is_left_out_of_the_answer_step():
    messages = _steps(
        "What is the email address of Carol's manager?",
        (
            [("get_email", '{"person": "Carol"}'), ("get_manager", '{"employee": "Carol"}')],
            ["Error: tool 'get_email' failed: No email for 'Carol'.", "Dave"],
        ),
        ([("get_email", '{"person": "Dave"}')], ["dave@corp.example"]),
    )
    _, results = turn_results(messages)
    assert results == [
        'get_manager(employee="Carol") = Dave',
        'get_email(person="Dave") = dave@corp.example',
    ]
    # a failure no later step retried stays: the answer says what went wrong
    _, results = turn_results(messages[:4])
    assert len(results) == 2 and results[0].startswith('get_email(person="Carol") = Error')


def test_a_refusal_of_a_value_another_tool_answered_is_left_out_of_the_answer_step():
    refusal = "not found: Route 7. Known bridges: Elm Bridge, Ash Bridge"
    messages = _steps(
        "七路车的终点站有几个站台？",
        ([("get_bridge", '{"name": "Route 7"}')], [refusal]),
        ([("get_route", '{"name": "Route 7 bus"}')], [_ROUTE]),
    )
    _, results = turn_results(messages)
    assert results == [f'get_route(name="Route 7 bus") = {_ROUTE}']
    # a tool the question names keeps its refusal: the answer says what went wrong
    named = [{"role": "user", "content": "Which bridge does Route 7 cross?"}, *messages[1:]]
    _, results = turn_results(named)
    assert len(results) == 2 and refusal in results[0]


def test_a_number_said_without_its_sign_or_in_another_spelling_is_the_same_number():
    assert magnitude("-84.0") == magnitude("84") == 84.0


def test_a_name_no_call_took_yet_keeps_the_turn_waiting():
    tools = _tools("get_team_captain", "get_player_age")

    def judge(result: str) -> CallJudge:
        messages = _steps(
            "How old is the captain of the Blue Sharks?",
            ([("get_team_captain", '{"team": "Blue Sharks"}')], [result]),
        )
        return CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)

    assert judge("Mia Chen").waiting
    # a reading, a number or a value a call already took is no name another call could take
    for result in ("3 hours", "27", "Blue Sharks"):
        assert not judge(result).waiting, result


def test_a_turn_whose_results_all_failed_waits_while_a_tool_is_untried():
    tools = _tools("get_capital", "get_timezone")
    failure = "Error: tool 'get_timezone' raised ValueError: unknown city: 法国."
    messages = _steps("法国首都的时区是什么？", ([("get_timezone", '{"city": "法国"}')], [failure]))
    assert untried_after_failures(messages, ["get_capital", "get_timezone"])
    assert CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True).waiting
    # every tool tried: nothing is left to try, the answer says what went wrong
    assert not untried_after_failures(messages, ["get_timezone"])
    both = _steps(
        "法国首都的时区是什么？",
        ([("get_timezone", '{"city": "法国"}')], [failure]),
        ([("get_capital", '{"country": "法國"}')], ["Error: unknown country"]),
    )
    assert not untried_after_failures(both, ["get_capital", "get_timezone"])
    # one result that did not fail: no longer a turn of failures
    found = _steps(
        "法国首都的时区是什么？",
        ([("get_timezone", '{"city": "法国"}')], [failure]),
        ([("get_capital", '{"country": "法国"}')], ["巴黎"]),
    )
    assert not untried_after_failures(found, ["get_capital", "get_timezone", "get_weather"])


def test_a_next_step_asking_the_spent_numbers_again_takes_the_result_and_the_unused_ones():
    tools = _tools("times", "plus")
    messages = _steps(
        "Multiply 12 by 7 and then add 16 to the result.",
        ([("times", '{"a": 12, "b": 7}')], ["84.0"]),
    )
    judge = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)

    def call(arguments: str) -> dict:
        return {"type": "function", "function": {"name": "plus", "arguments": arguments}}

    assert judge.next_step_arguments(call('{"a": 12, "b": 7}')) == {"a": 84, "b": 16}
    assert judge.next_step_arguments(call('{"a": 84, "b": 16}')) is None  # the step itself
    assert judge.next_step_arguments(call('{"a": 12, "b": 16}')) is None  # an unused number
    # the result in both places, or beside a spent number: the 16 still waits
    assert judge.next_step_arguments(call('{"a": 84, "b": 84}')) == {"a": 84, "b": 16}
    assert judge.next_step_arguments(call('{"a": 84, "b": 7}')) == {"a": 84, "b": 16}
    assert judge.next_step_arguments(call('{"a": 84, "b": 99}')) is None  # a number of its own
    # nothing of the question left unused: the answer, not another step
    done = _steps("Multiply 12 by 7.", ([("times", '{"a": 12, "b": 7}')], ["84.0"]))
    judge = CallJudge(ChatJob(messages=done, tools=tools), ToolPolicy(), auto=True)
    assert judge.next_step_arguments(call('{"a": 12, "b": 7}')) is None
    # two numbers unused and two places: no place is left for the result
    two = _steps(
        "Multiply 12 by 7, then add 16 and 5.",
        ([("times", '{"a": 12, "b": 7}')], ["84.0"]),
    )
    judge = CallJudge(ChatJob(messages=two, tools=tools), ToolPolicy(), auto=True)
    assert judge.next_step_arguments(call('{"a": 12, "b": 7}')) is None


def test_a_result_written_in_every_place_gives_one_to_the_questions_number():
    tools = _tools("get_ticket_price", "multiply")
    messages = _steps(
        "What do 3 tickets to Hamilton cost in total?",
        ([("get_ticket_price", '{"show": "Hamilton"}')], ["120"]),
    )
    judge = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)
    call = {
        "type": "function",
        "function": {"name": "multiply", "arguments": '{"a": 120, "b": 120}'},
    }
    assert judge.next_step_arguments(call) == {"a": 120, "b": 3}


_DIVIDED = "Divide 144 by 12, add 7 to that, then multiply the result by 3."


def test_the_same_inputs_asked_of_another_tool_while_later_numbers_wait_take_a_place():
    earlier = [("divide", {"dividend": 144, "divisor": 12})]
    spent = spent_numbers("multiply", {"a": 144, "b": 12}, earlier, _DIVIDED)
    assert spent == [("a", 144.0, 0), ("b", 12.0, 0)]
    # with nothing of the question after them, the same inputs asked of another tool are a
    # question of their own: "the sum and the product of 3 and 4"
    both = "What are the sum and the product of 3 and 4?"
    assert spent_numbers("multiply", {"a": 3, "b": 4}, [("add", {"a": 3, "b": 4})], both) == []
    # one result cannot take two places: no rewrite of multiply(144, 12) as multiply(12, 12)
    assert results_in_place({"a": 144, "b": 12}, spent, ["12"]) is None


def test_a_number_written_more_often_than_stated_takes_the_next_unused_ones_place():
    half = "帮我算个数：先取 250 的一半，加上 37，之后再乘以 3，最后是多少？"
    assert doubled_in_place({"x": 250, "y": 250}, [], half) == {"x": 250, "y": 2}
    # the next unused number after it, not one an earlier call took
    later = "From 40, take away 15, then subtract 15 again and add 6."
    assert doubled_in_place({"a": 40, "b": 40}, [], later) == {"a": 40, "b": 15}
    assert doubled_in_place({"a": 40, "b": 40}, [("f", {"n": 15})], later) == {"a": 40, "b": 6}
    # as often as stated: no place of another number; nothing unused: nothing to put there
    assert doubled_in_place({"a": 15, "b": 15}, [], later) is None
    assert doubled_in_place({"a": 5, "b": 5}, [], "the area of a square of side 5") is None


def test_a_finished_chain_run_on_asks_again():
    tools = _tools("multiply", "subtract", "divide")
    question = "Take 36 times 7, subtract 58 from that, and then halve the result."
    done = _steps(
        question,
        ([("multiply", '{"a": 36, "b": 7}')], ["252"]),
        ([("subtract", '{"a": 252, "b": 58}')], ["194"]),
        ([("divide", '{"a": 194, "b": 2}')], ["97"]),
    )
    judge = CallJudge(ChatJob(messages=done, tools=tools), ToolPolicy(), auto=True)
    run_on = {"function": {"name": "subtract", "arguments": '{"a": 97, "b": 58}'}}
    assert judge.combined and judge.asks_again(run_on)
    spent_result = {"function": {"name": "multiply", "arguments": '{"a": 194, "b": 2}'}}
    assert judge.asks_again(spent_result)  # 194 is a result a call already took
    # before the halving the chain is not done: the factor the word states still waits
    halfway = done[:-2]
    judge = CallJudge(ChatJob(messages=halfway, tools=tools), ToolPolicy(), auto=True)
    assert not judge.combined
    # a tax added to its price takes the price again, the chain not yet done
    taxed = _steps("Add 10% tax to 50.", ([("percent", '{"value": 50, "percent": 10}')], ["5"]))
    judge = CallJudge(ChatJob(messages=taxed, tools=tools), ToolPolicy(), auto=True)
    assert not judge.asks_again({"function": {"name": "add", "arguments": '{"a": 50, "b": 5}'}})


def test_a_factor_in_words_is_an_operand_not_a_number_the_answer_waits_for():
    chain = _turn("Take 36 times 7, then halve the result.", '{"a": 36, "b": 7}', "252")
    assert unused_numbers(chain) == [2.0]
    assert unused_numbers(chain, words=False) == []


def test_a_call_writing_a_number_more_often_than_stated_is_a_step_of_nothing():
    tools = _tools("sum_numbers", "subtract")
    summed = _steps("三张票一共多少钱？", ([("sum_numbers", '{"values": [60, 45, 30]}')], ["135"]))
    judge = CallJudge(ChatJob(messages=summed, tools=tools), ToolPolicy(), auto=True)
    nothing = {"function": {"name": "subtract", "arguments": '{"a": 135, "b": 135}'}}
    assert judge.writes_twice(nothing)
    assert not judge.writes_twice({"function": {"name": "subtract", "arguments": '{"a": 135}'}})
    # two results of the same number may be added
    same = _steps("Sum them.", ([("f", "{}"), ("f", "{}")], ["6", "6"]))
    judge = CallJudge(ChatJob(messages=same, tools=tools), ToolPolicy(), auto=True)
    assert not judge.writes_twice({"function": {"name": "add", "arguments": '{"a": 6, "b": 6}'}})


def test_a_tool_not_asked_for_about_values_other_tools_took_asks_again():
    tools = _tools("get_menu_item", "get_ferry_service", "get_stock")
    question = "What do a rye loaf and a plum tart cost at the bakery?"
    looked = _steps(
        question,
        (
            [("get_menu_item", '{"item": "rye loaf"}'), ("get_menu_item", '{"item": "plum tart"}')],
            ['{"item": "Rye Loaf", "price": 12}', '{"item": "Plum Tart", "price": 9}'],
        ),
    )
    judge = CallJudge(ChatJob(messages=looked, tools=tools), ToolPolicy(), auto=True)
    ferry = {"function": {"name": "get_ferry_service", "arguments": '{"ferry": "Plum Tart"}'}}
    assert judge.asks_again(ferry)  # the same item asked of a tool nobody asked for
    # a tool the question asks for, or a value no call took yet, asks something new
    stock = {"function": {"name": "get_stock", "arguments": '{"item": "plum tart"}'}}
    asked = looked[:]
    asked[0] = {"role": "user", "content": question + " Are they in stock?"}
    judge = CallJudge(ChatJob(messages=asked, tools=tools), ToolPolicy(), auto=True)
    assert not judge.asks_again(stock)
    new = {"function": {"name": "get_ferry_service", "arguments": '{"ferry": "Dawn"}'}}
    assert not judge.asks_again(new)


def test_a_call_mixing_two_fields_of_one_record_takes_the_first_field_of_each():
    dawn = "Dawn Express: departs 07:15, journey 95 minutes, fare 68 yuan"
    whale = "Blue Whale: departs 08:40, journey 130 minutes, fare 92 yuan"
    earlier = [("get_train", {"train": "Dawn Express"}), ("get_train", {"train": "Blue Whale"})]
    question = "I ride the Dawn Express, then the Blue Whale. How long am I on board?"
    moved = fields_in_place({"a": 130, "b": 92}, earlier, [dawn, whale], question)
    assert moved == {"a": 95, "b": 130}
    listed = fields_in_place({"values": [130, 92]}, earlier, [dawn, whale], question)
    assert listed == {"values": [95, 130]}
    # one field of each record, a number of the question, or a record alone: as it is
    assert fields_in_place({"a": 95, "b": 130}, earlier, [dawn, whale], question) is None
    assert fields_in_place({"a": 130, "b": 92}, earlier, [dawn, whale], "130 and 92?") is None
    alone = [earlier[1]]
    assert fields_in_place({"a": 130, "b": 92}, alone, [whale], question) is None
    # the only record: the question's unused numbers take the later places
    trips = fields_in_place({"a": 130, "b": 92}, alone, [whale], "3 trips?", [3.0])
    assert trips == {"a": 130, "b": 3}
    records = [
        '{"item": "Rye", "price": 12, "grams": 500}',
        '{"item": "Tart", "price": 9, "grams": 90}',
    ]
    bakery = [("get_item", {"item": "rye"}), ("get_item", {"item": "tart"})]
    assert fields_in_place({"x": 12, "y": 500}, bakery, records, "Rye and tart?") == {
        "x": 12,
        "y": 9,
    }


def test_an_extra_call_over_the_records_other_quantity_is_not_made():
    records = [
        '{"item": "Rye", "price": 18, "grams": 110}',
        '{"item": "Tart", "price": 15, "grams": 95}',
    ]
    earlier = [("get_item", {"item": "rye"}), ("get_item", {"item": "tart"})]
    prices = {"values": [18, 15]}
    assert other_field({"values": [110, 95]}, [prices], earlier, records)
    # the same quantity again, numbers of no record, or no earlier call: not this fault
    assert not other_field({"values": [15, 18]}, [prices], earlier, records)
    assert not other_field({"values": [3, 4]}, [prices], earlier, records)
    assert not other_field({"values": [110, 95]}, [], earlier, records)


def test_a_call_combining_fields_of_the_only_record_asks_again():
    tools = _tools("get_room", "multiply")
    record = '{"room": "family suite", "price_per_night": 888, "max_guests": 4}'
    looked = _steps(
        "What's the nightly price of a family suite?",
        ([("get_room", '{"room": "family suite"}')], [record]),
    )
    judge = CallJudge(ChatJob(messages=looked, tools=tools), ToolPolicy(), auto=True)
    rate_times_guests = {"function": {"name": "multiply", "arguments": '{"a": 888, "b": 4}'}}
    assert judge.asks_again(rate_times_guests)
    # a number of the question makes it a step: three nights
    nights = _steps(
        "What do 3 nights in a family suite cost?",
        ([("get_room", '{"room": "family suite"}')], [record]),
    )
    judge = CallJudge(ChatJob(messages=nights, tools=tools), ToolPolicy(), auto=True)
    three = {"function": {"name": "multiply", "arguments": '{"a": 888, "b": 3}'}}
    assert not judge.asks_again(three)
    assert not fields_of_one_record({"a": 888, "b": 3}, [("get_room", {})], [record], "3 nights?")
    # both fields named by the question: the combination is asked ("per guest")
    per_guest = "What does the family suite cost per night for each of its most guests?"
    assert not fields_of_one_record({"a": 888, "b": 4}, [("get_room", {})], [record], per_guest)


def test_once_combined_a_tool_not_asked_for_about_the_results_values_asks_again():
    tools = _tools("get_trail", "total", "get_rental_car")
    summed = _steps(
        "How many km are the Eagle Trail and the Creek Walk together?",
        (
            [("get_trail", '{"trail": "Eagle Trail"}'), ("get_trail", '{"trail": "Creek Walk"}')],
            [
                '{"trail": "Eagle Beak Rock Trail", "km": 6.4}',
                '{"trail": "Creek Boardwalk", "km": 3.8}',
            ],
        ),
        ([("total", '{"values": [6.4, 3.8]}')], ["10.2"]),
    )
    judge = CallJudge(ChatJob(messages=summed, tools=tools), ToolPolicy(), auto=True)
    assert judge.combined
    car = {"function": {"name": "get_rental_car", "arguments": '{"car": "Creek Boardwalk"}'}}
    assert judge.asks_again(car)
    # before the results are combined, a value a result gave may be the chain's next step
    looked = summed[:-2]
    judge = CallJudge(ChatJob(messages=looked, tools=tools), ToolPolicy(), auto=True)
    assert not judge.asks_again(car)


def test_a_result_that_restates_what_it_was_asked_gives_the_value_after_it() -> None:
    earlier = [
        ("get_weather", {"city": "China", "unit": "celsius"}),
        ("get_capital", {"country": "China"}),
    ]
    results = ["Error: Unknown city 'China'.", "中国 (China): 北京 (Beijing)"]
    resumed = failed_step_to_resume(earlier, results, [True, False])
    assert resumed == ("get_weather", {"city": "北京", "unit": "celsius"})
    # a result that restates something else gives nothing
    results = ["Error: Unknown city 'China'.", "Asia: 北京 (Beijing)"]
    assert failed_step_to_resume(earlier, results, [True, False]) is None


def test_a_name_asked_of_the_wrong_tool_is_no_step_of_a_chain_the_question_never_asks() -> None:
    earlier = [
        ("get_chandlery", {"name": "Wickmoor Chandlery"}),
        ("get_dye_works", {"name": "Beeswick & Daughters"}),
        ("get_chandlery", {"name": "Beeswick & Daughters"}),
    ]
    results = [
        "Name: Wickmoor Chandlery | staff: 12 | dye supplier: Madder Lane Dye Works",
        "No dye works named 'Beeswick & Daughters'. Known: Madder Lane Dye Works",
        "Name: Beeswick & Daughters | staff: 7 | dye supplier: Bluebrook Dye Works",
    ]
    failed = [False, True, False]
    question = "How many people work at Wickmoor Chandlery and Beeswick & Daughters?"
    assert failed_step_to_resume(earlier, results, failed, question) is None
    # a question that says the failed tool's kind asks for the thing the record names
    asked = "Which dye works supplies Beeswick & Daughters, and how many vats has it?"
    resumed = failed_step_to_resume(earlier, results, failed, asked)
    assert resumed == ("get_dye_works", {"name": "Bluebrook Dye Works"})


def test_a_failed_value_goes_the_way_another_value_went() -> None:
    earlier = [
        ("get_population", {"city": "Japan"}),
        ("get_capital", {"country": "United Kingdom"}),
        ("get_population", {"city": "London"}),
    ]
    results = ["Error: Unknown city 'Japan'.", "英国 (United Kingdom): 伦敦 (London)", "8.9m"]
    failed = [True, False, False]
    assert first_step_for(earlier, results, failed) == ("get_capital", {"country": "Japan"})
    # once asked, the chain's next step is the failed call with the capital in its place
    earlier += [("get_capital", {"country": "Japan"})]
    results += ["日本 (Japan): 东京 (Tokyo)"]
    failed += [False]
    assert first_step_for(earlier, results, failed) is None
    assert failed_step_to_resume(earlier, results, failed) == ("get_population", {"city": "东京"})
    # a first step whose result went nowhere is no chain
    assert first_step_for(earlier[:2], results[:2], failed[:2]) is None


_ROUTE = "Route 7 (七路): runs every 12 minutes, 38 stops, ends at Willowgate Station (柳门站)"


def test_a_record_names_an_entity_of_the_kind_a_tool_looks_up():
    # a name in capitals ending with the tool's own word, however the record puts it
    assert kind_named(_ROUTE, "get_station") == "Willowgate Station"
    assert kind_named(_ROUTE, "lookupStationInfo") == "Willowgate Station"
    # one that the tool's refusal listed as known, whatever its words
    refusal = "not found: Route 7. Known stations: Willowgate Station (柳门站), Elm Yard (榆场)"
    assert kind_named("Route 9: ends at Elm Yard (榆场)", "get_station", refusal) == "Elm Yard"
    # a kind of two words is read whole, not cut at its first ("Gorse Lane Bell")
    tower = "Thornwick Tower: bell weight 4,720 kg, bell cast by Gorse Lane Bell Foundry (金雀巷)"
    assert kind_named(tower, "get_bell_foundry") == "Gorse Lane Bell Foundry"
    # no name of the kind, an error, a word in lower case: none
    assert kind_named(_ROUTE, "get_bridge") is None
    assert kind_named("Error: Willowgate Station is closed", "get_station") is None
    assert kind_named("runs to the station by the river", "get_station") is None


def test_a_record_names_an_entity_whose_own_words_state_the_tools_kind():
    # "Light" of a lighthouse: read against the offered lookups, not the tool's last word
    wreck = "The Osprey sank in 1911; the nearest lighthouse is Corrie Head Light."
    lookups = ["get_wreck", "get_lighthouse", "get_harbour"]
    assert kind_named(wreck, "get_lighthouse") is None
    assert kind_named(wreck, "get_lighthouse", lookups=lookups) == "Corrie Head Light"
    # a name already asked is passed over for the next of the kind
    two = "Corrie Head Light stands near Brenna Point Light."
    skip = frozenset({"corrie head light"})
    assert kind_named(two, "get_lighthouse", lookups=lookups, skip=skip) == "Brenna Point Light"
    # a tool that is no lookup by name among them: none
    assert kind_named(wreck, "get_lighthouse", lookups=["get_wreck"]) is None


def test_the_named_entity_is_looked_up_with_a_sum_made_beside_the_record():
    wreck = "The Osprey sank in 1911; the nearest lighthouse is Corrie Head Light."
    schemas = {
        name: {"properties": {"name": {"type": "string"}}, "required": ["name"]}
        for name in ("get_wreck", "get_lighthouse")
    }
    schemas["multiply"] = {
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"],
    }
    question = "The Osprey lies near a lighthouse. How tall is that lighthouse?"
    calls = [("multiply", {"a": 10, "b": 10}), ("get_wreck", {"name": "Osprey"})]
    step = ("get_lighthouse", {"name": "Corrie Head Light"})
    assert named_next_step(calls, ["100", wreck], [False, False], question, schemas) == step
    # the lighthouse tool refused the wreck's name first: the step is still the named one
    refused = [("get_lighthouse", {"name": "Osprey"}), ("get_wreck", {"name": "Osprey"})]
    results = ["I couldn't find a lighthouse called Osprey.", wreck]
    assert named_next_step(refused, results, [True, False], question, schemas) == step


def test_a_step_asked_first_of_the_wrong_value_is_resumed_with_the_entity_its_record_names():
    refusal = "not found: Route 7. Known stations: Willowgate Station (柳门站), Elm Yard (榆场)"
    calls = [("get_station", {"name": "Route 7"}), ("get_route", {"name": "Route 7"})]
    resumed = failed_step_to_resume(calls, [refusal, _ROUTE], [True, False])
    assert resumed == ("get_station", {"name": "Willowgate Station"})
    # once that station was asked, or when the record came for another value: nothing
    asked = [*calls, ("get_station", {"name": "Willowgate Station"})]
    results = [refusal, _ROUTE, "12 platforms"]
    assert failed_step_to_resume(asked, results, [True, False, False]) is None
    other = [calls[0], ("get_route", {"name": "Route 9"})]
    assert failed_step_to_resume(other, [refusal, _ROUTE], [True, False]) is None


def test_the_number_a_question_asks_of_a_record_is_found_by_its_label():
    record = "Route 7 (七路): runs every 12 minutes, 38 stops, 5,400 riders per day"
    assert asked_number(record, "How many stops does route 7 have?") == "38"
    assert asked_number(record, "how many riders ride route 7 each day?") == "5400"
    # a question that names no label, or two equally, or a record of one number: none
    assert asked_number(record, "Tell me about route 7") is None
    assert asked_number(record, "stops or riders?") is None
    assert asked_number("38 stops", "How many stops?") is None
    # two labels said as often: the one "how many" counts
    cooperage = "Oakhollow Cooperage: founded 1864, coopers: 8, casks per month: 150"
    question = "Who makes the casks for Goldthorn Mead Works, and how many coopers work there?"
    assert asked_number(cooperage, question, ignore={"cooperage"}) == "8"
    # a word that names a tool's kind names no quantity ("bell" of the bell foundry)
    tower = "Thornwick Tower: height 48 m, bell weight 4,720 kg, built 1902"
    question = "What year was the foundry that cast the bell founded?"
    assert asked_number(tower, question) == "4720"
    assert asked_number(tower, question, ignore={"bell", "foundry"}) is None
    # words match by their stems: "open" asks for "opened"
    rink = "name=Hallam Rink, opened=1971, seats=640, lessons_per_week=30"
    assert asked_number(rink, "In which year did Hallam Rink open?") == "1971"
    # "how deep" asks for the depth, "how tall" for the height
    mine = "Ely Mine: opened 1890, depth 300 m, 40 miners"
    assert asked_number(mine, "How deep is Ely Mine?") == "300"
    tower = "Ely Tower: built 1890, height 41 m, 3 bells"
    assert asked_number(tower, "How tall is Ely Tower?") == "41"
    # "a day" asks for the daily number, not another number of the same thing
    ferry = "Name: Gull Ferry\nfounded: 1923\ndaily crossings: 14\ncrossing time (minutes): 35"
    assert asked_number(ferry, "How many crossings a day does Gull Ferry make?") == "14"


_SCHEMAS = {
    name: {"properties": {"name": {"type": "string"}}, "required": ["name"]}
    for name in ("get_route", "get_station")
}


def test_the_entity_a_record_names_is_looked_up_when_the_question_points_at_it():
    calls, results = [("get_route", {"name": "Route 7"})], [_ROUTE]
    step = ("get_station", {"name": "Willowgate Station"})
    question = "Route 7 ends at a station. How many platforms does that station have?"
    assert named_next_step(calls, results, [False], question, _SCHEMAS) == step
    assert (
        named_next_step(calls, results, [False], "七路车终点的那个车站有几个站台？", _SCHEMAS)
        == step
    )
    # asked of the route itself, by a label of its record or without pointing at a station
    for other in (
        "How many stops does Route 7 have?",
        "七路车一共有几站？",
        "Tell me about Route 7",
    ):
        assert named_next_step(calls, results, [False], other, _SCHEMAS) is None
    # once the station was asked, or with two lookups answered, or none: no step
    asked = [*calls, ("get_station", {"name": "Willowgate Station"})]
    assert (
        named_next_step(asked, [*results, "6 platforms"], [False, True], question, _SCHEMAS) is None
    )
    two = [*calls, ("get_route", {"name": "Route 9"})]
    assert named_next_step(two, [*results, _ROUTE], [False, False], question, _SCHEMAS) is None
    assert named_next_step(calls, ["Error: no route"], [True], question, _SCHEMAS) is None


_KELP = (
    "Name: Greywater Kelp Farm (灰水海带场)\nfounded: 1978\ndivers: 9\n"
    "buyer (mushroom cellar): Old Quarry Cellars (老采石场蘑菇窖)"
)
_KELP_SCHEMAS = {
    name: {"properties": {"name": {"type": "string"}}, "required": ["name"]}
    for name in ("find_kelp_farm", "mushroom_cellar_record")
}


def test_a_record_with_the_asked_label_is_passed_when_the_question_points_past_it():
    calls = [("find_kelp_farm", {"name": "Greywater Kelp Farm"})]
    step = ("mushroom_cellar_record", {"name": "Old Quarry Cellars"})
    question = (
        "Greywater Kelp Farm sells its kelp to a mushroom cellar — what year was that cellar "
        "founded?"
    )
    assert named_next_step(calls, [_KELP], [False], question, _KELP_SCHEMAS) == step
    chinese = "灰水海带场把海带卖给一家蘑菇窖，那家蘑菇窖是哪一年成立的？"
    assert named_next_step(calls, [_KELP], [False], chinese, _KELP_SCHEMAS) == step
    # the farm's own founding year asked, or the policy's rule off: the record answers
    for own in (
        "What year was Greywater Kelp Farm founded, the farm that sells to a mushroom cellar?",
        "灰水海带场是哪一年成立的？",
    ):
        assert named_next_step(calls, [_KELP], [False], own, _KELP_SCHEMAS) is None
    off = named_next_step(calls, [_KELP], [False], question, _KELP_SCHEMAS, past_asked=False)
    assert off is None


_SEED_BANK = (
    "Name: Saltcombe Seed Bank (盐谷种子库)\nfounded: 1975\nvarieties stored: 3640\n"
    "patron guild: Quillhaven Guild (羽港行会)"
)
_GUILD_SCHEMAS = {
    name: {"properties": {"name": {"type": "string"}}, "required": ["name"]}
    for name in ("lookup_seed_bank", "lookup_clock_guild")
}


def test_a_chinese_question_that_says_the_named_things_kind_points_at_it():
    # "资助行会" says the 行会 of "Quillhaven Guild (羽港行会)" without naming it
    question = "盐谷种子库的资助行会一年能做多少座钟？"
    assert says_its_kind(_SEED_BANK, "Quillhaven Guild", question)
    assert not says_its_kind(_SEED_BANK, "Quillhaven Guild", "盐谷种子库存了多少个品种？")
    assert not says_its_kind(_SEED_BANK, "Quillhaven Guild", "羽港行会一年能做多少座钟？")  # named
    calls = [("lookup_seed_bank", {"name": "盐谷种子库"})]
    step = ("lookup_clock_guild", {"name": "Quillhaven Guild"})
    assert named_next_step(calls, [_SEED_BANK], [False], question, _GUILD_SCHEMAS) == step
    other = "盐谷种子库有几个库房？"
    assert named_next_step(calls, [_SEED_BANK], [False], other, _GUILD_SCHEMAS) is None
    tools = [
        {"type": "function", "function": {"name": n, "parameters": p}}
        for n, p in _GUILD_SCHEMAS.items()
    ]
    asked = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "lookup_seed_bank", "arguments": '{"name": "盐谷种子库"}'},
            }
        ],
    }
    answered = {"role": "tool", "tool_call_id": "c1", "content": _SEED_BANK}
    for text, past in ((question, False), (other, True)):
        messages = [{"role": "user", "content": text}, asked, answered]
        judge = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)
        call = {
            "id": "c2",
            "type": "function",
            "function": {"name": "lookup_clock_guild", "arguments": '{"name": "Quillhaven Guild"}'},
        }
        assert judge.looks_past_the_question(call) is past


_FORGE = (
    '{"name": "Ashby Nail Forge", "chinese_name": "阿什比铁钉坊", "founded": 1811, '
    '"nails_per_day": 9000, "charcoal_from": "Corwen Smoke Pits (科文炭窑)"}'
)
_LINKED = {
    name: {"properties": {"name": {"type": "string"}}, "required": ["name"]}
    for name in ("nail_forge_info", "charcoal_kiln_record", "wharf_lookup")
}


def test_a_record_links_the_names_of_other_things_than_itself():
    assert linked_names(_FORGE, set(), "q") == [("Corwen Smoke Pits", "科文炭窑")]
    # labels in capitals are no names; the record's own name stands first, before its numbers
    lines = "Forge: Ashby Nail Forge\nNails Per Day: 9000\nCharcoal From: Corwen Smoke Pits"
    assert linked_names(lines, set(), "q") == [("Corwen Smoke Pits", None)]
    # a name the turn asked, or the question writes, is no link
    assert linked_names(_FORGE, {"corwen smoke pits"}, "q") == []
    assert linked_names(_FORGE, set(), "Is Corwen Smoke Pits near?") == []


def test_a_linked_name_that_states_no_kind_goes_to_the_lookup_the_question_points_at():
    calls, results = [("nail_forge_info", {"name": "阿什比铁钉坊"})], [_FORGE]
    step = ("charcoal_kiln_record", {"name": "Corwen Smoke Pits"})

    def never(tools):
        raise AssertionError(f"nothing to pick among {tools}")

    # the question's own kind word says which lookup
    question = "Ashby Nail Forge buys charcoal from a kiln. How old is that kiln?"
    assert named_next_step(calls, results, [False], question, _LINKED, pick=never) == step
    # a Chinese question that refers back: the lookup the name's Chinese name states (炭窑)
    question = "阿什比铁钉坊的木炭是哪家供应的？那家一年烧多少炭？"
    assert named_next_step(calls, results, [False], question, _LINKED, pick=never) == step
    # else the model's likeliest of the lookups not answered
    asked: list[list[str]] = []

    def likeliest(tools):
        asked.append(list(tools))
        return "charcoal_kiln_record"

    bare = [_FORGE.replace(" (科文炭窑)", "")]
    assert named_next_step(calls, bare, [False], question, _LINKED, pick=likeliest) == step
    assert asked == [["charcoal_kiln_record", "wharf_lookup"]]
    # without a picker, or a question that points at nothing past the record: no step
    assert named_next_step(calls, results, [False], question, _LINKED) is None
    plain = "阿什比铁钉坊每天做多少颗钉子？"
    assert named_next_step(calls, results, [False], plain, _LINKED, pick=likeliest) is None
    told = "How many nails does Ashby Nail Forge make a day?"
    assert named_next_step(calls, results, [False], told, _LINKED, pick=never) is None
    # beside a record an earlier step answered, the last step's record leads on
    wharf = [("wharf_lookup", {"name": "Tarn Wharf"}), *calls]
    records = ["Tarn Wharf: 4 berths, 12 cranes", _FORGE]
    question = (
        "Tarn Wharf ships Ashby Nail Forge's nails; its charcoal comes from a kiln. "
        "How old is that kiln?"
    )
    assert named_next_step(wharf, records, [False, False], question, _LINKED, pick=never) is None
    assert (
        named_next_step(wharf, records, [False, False], question, _LINKED, pick=never, since=1)
        == step
    )


def test_a_word_of_a_records_name_asks_for_a_label_only_standing_alone_as_the_whole_label():
    theatre = "Thimblegate Puppet Theatre: opened 1899, 64 seats, 210 puppets, 4 shows per week"
    tool_words = {"get", "puppet", "theatre"}
    question = "How many puppets does Thimblegate Puppet Theatre own?"
    assert asked_number(theatre, question, tool_words) == "210"
    # the name's words as a name ask for nothing: no number is asked
    assert asked_number(theatre, "Tell me about Thimblegate Puppet Theatre", tool_words) is None
    # a plural and its singular are one word
    tannery = "Harrowby Tannery: founded 1871, 14 workers, 320 hides per week"
    assert asked_number(tannery, "What is the weekly hide output of Harrowby Tannery?") == "320"


def test_a_plural_ending_is_taken_off_as_english_writes_it():
    words = "hides primes boxes batteries glass glasses works puppets".split()
    assert [stem(w) for w in words] == [
        "hide", "prime", "box", "battery", "glass", "glass", "work", "puppet"
    ]  # fmt: skip
    assert stem("days") == "days"  # four letters or fewer: as written


def test_a_record_starts_with_its_name_before_a_colon_or_a_dash():
    assert record_name("Route 7 (七路): opened 1962, 38 stops") == "Route 7 (七路)"
    brigade = "Kestrel Vale Fire Brigade — 4 engines; founded in 1902; crew: 28"
    assert record_name(brigade) == "Kestrel Vale Fire Brigade"  # not up to "crew:"
    assert record_name("38 stops, 5 lines: none") == ""  # a comma before: no name
    assert record_name('{"name": "Hall", "rooms": 4}') == ""
    # the name's words are no labels: "crew" is asked
    assert asked_number(brigade, "How many crew does Kestrel Vale Fire Brigade have?") == "28"


def test_a_name_every_lookup_refused_is_asked_of_the_lookups_not_tried():
    by_name = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    tools = [
        {"type": "function", "function": {"name": n, "parameters": by_name}}
        for n in ("get_ropewalk", "get_harbour", "get_chandlery")
    ]
    question = "Penmoor buys its rope from one ropewalk. How many spinners work there?"

    def judge(*steps: tuple[list[tuple[str, str]], list[str]]) -> CallJudge:
        messages = _steps(question, *steps)
        return CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)

    refused = ([("get_ropewalk", '{"name": "Penmoor Ropewalk"}')], ["No ropewalk named that."])
    # the name in the question's words ("Penmoor"), of each lookup not called yet
    assert judge(refused).names_for_untried() == [
        ("get_harbour", {"name": "Penmoor"}),
        ("get_chandlery", {"name": "Penmoor"}),
    ]
    # a sum beside the refusal is no lookup that answered
    stray = (
        [("get_ropewalk", '{"name": "Penmoor"}'), ("add", '{"a": 1, "b": 1}')],
        ["Unknown ropewalk.", "2"],
    )
    assert judge(stray).names_for_untried()[0] == ("get_harbour", {"name": "Penmoor"})
    # a name the question does not write, or two names refused: none
    other = ([("get_ropewalk", '{"name": "Corran Ropewalk"}')], ["Unknown ropewalk."])
    assert judge(other).names_for_untried() == []
    two = (
        [("get_ropewalk", '{"name": "Penmoor"}'), ("get_harbour", '{"name": "ropewalk"}')],
        ["Unknown ropewalk.", "Unknown harbour."],
    )
    assert judge(two).names_for_untried() == []


def test_a_name_one_lookup_refused_beside_answers_is_asked_of_the_lookups_not_tried():
    by_name = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    tools = [
        {"type": "function", "function": {"name": n, "parameters": by_name}}
        for n in ("get_skating_rink", "get_choir")
    ]
    question = (
        "The Marlow Singers rehearse at a skating rink. How many more skaters a day does "
        "that rink get than Brill Ice Rink?"
    )

    def judge(
        results: list[str], policy: ToolPolicy | None = None, name: str = "Marlow Singers"
    ) -> CallJudge:
        calls = [
            ("get_skating_rink", '{"name": "Brill Ice Rink"}'),
            ("get_skating_rink", json.dumps({"name": name})),
        ]
        messages = _steps(question.replace("The Marlow Singers", name), (calls, results))
        return CallJudge(ChatJob(messages=messages, tools=tools), policy or ToolPolicy(), auto=True)

    answered = ["Brill Ice Rink: 410 skaters a day", "Unknown rink."]
    assert judge(answered).names_for_untried() == [("get_choir", {"name": "Marlow Singers"})]
    # turned off, or a refused name that states the refusing tool's kind: none
    off = ToolPolicy(refused_names_elsewhere=False)
    assert judge(answered, off).names_for_untried() == []
    assert judge(answered, name="Marlow Skating Rink").names_for_untried() == []
    assert judge(answered, name="Marlow Choir").names_for_untried() == [
        ("get_choir", {"name": "Marlow Choir"})
    ]


def test_a_name_of_a_counted_list_is_given_with_its_kinds_word():
    by_name = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    tools = [{"type": "function", "function": {"name": "get_rope_works", "parameters": by_name}}]
    question = "彭罗、阿什比和卡文这三家绳索厂一共有多少名工人？"
    messages = [{"role": "user", "content": question}]
    judge = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)

    def call(name: str) -> dict:
        return {"function": {"name": "get_rope_works", "arguments": json.dumps({"name": name})}}

    # "阿什比绳索厂" is not written whole, but the list gives it: no value nobody gave
    assert not judge.rejected(call("阿什比绳索厂"))
    assert judge.rejected(call("奥尔德绳索厂"))  # a name the question does not give
    # the question copied as the name is the list's first thing, asked of its tool
    assert judge.of_its_kind(call(question)) == ("get_rope_works", {"name": "彭罗绳索厂"})


def test_a_records_numbers_are_labelled_each_by_its_own_words():
    from toolkit.local.decision.records import record_labels

    def labels(record: str) -> list[tuple[set[str], str]]:
        return [(set(words), number) for words, number in record_labels(record)]

    # two numbers in one part: each by the words right after it, or before it
    assert labels("Ely Zoo: opened 1889, 640 animals of 112 species") == [
        ({"opened"}, "1889"),
        ({"animal"}, "640"),
        ({"specy"}, "112"),
    ]
    assert labels("Ely Foundry was founded in 1790 and has cast 4,820 bells")[1] == (
        {"bell"},
        "4820",
    )
    # a sentence's full stop ends a part; a keyed line keeps its brackets
    assert labels("Ely Mill opened in 1879. It employs 340 workers")[0][0] >= {"opened"}
    assert labels("buses: 112\ndaily_km (all buses combined): 18400")[1] == (
        {"daily", "km", "all", "buse", "combined"},
        "18400",
    )


def test_another_kinds_word_alone_is_no_name_of_that_kind_either():
    by_name = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    tools = [
        {"type": "function", "function": {"name": n, "parameters": by_name}}
        for n in ("get_rope_works", "get_dock")
    ]
    question = "彭罗绳索厂最大的客户是一座码头，那座码头有几个泊位？"
    messages = [{"role": "user", "content": question}]
    judge = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)
    dock = {"function": {"name": "get_rope_works", "arguments": '{"name": "码头"}'}}
    # "码头" (a dock) asked of the rope works: no dock's name, but the question's thing
    assert judge.of_its_kind(dock) == ("get_rope_works", {"name": "彭罗绳索厂"})
    assert not judge.names_no_thing(dock)


def test_a_headcount_asked_in_other_words_is_the_staff():
    record = "Orrin Kiln: pots per week 300, staff 12, firings per year 48"
    assert asked_number(record, "How many people work at Orrin Kiln?") == "12"
    assert asked_number(record, "How many does Orrin Kiln employ?") == "12"
    # a label's own word names its label alone
    both = "Orrin Kiln: 12 staff, 30 workers, 300 pots"
    assert asked_number(both, "How many workers does Orrin Kiln have?") == "30"
    assert asked_number(record, "How many pots does Orrin Kiln make?") == "300"


def test_a_year_asked_of_a_record_is_the_one_year_it_states():
    from toolkit.local.decision.records import asked_year

    record = "Kelby Rink Society | members=259 | founded=1899 | annual_fee_gbp=390"
    assert asked_year(record, "凯尔比冰壶协会是哪一年成立的？") == "1899"
    assert asked_year(record, "In which year was it established?") == "1899"
    assert asked_year(record, "How many members does it have?") is None  # no year asked
    built = "Ely Mine: opened 1890, rebuilt 1932, depth 300 m"
    assert asked_year(built, "What year did Ely Mine open?") is None  # two years: no one


def test_a_label_is_asked_by_its_unit_and_its_span_said_otherwise():
    record = (
        "name: Pellham Snail Meadows\nsnails_kept: 48000\nkeepers: 5\n"
        "annual_harvest_kg: 2750\nlettuce_tonnes_per_year: 19"
    )
    question = "What's the combined yearly harvest in kilograms of the snail farms?"
    assert asked_number(record, question, {"snail", "farm", "ledger"}) == "2750"


def test_a_span_of_time_alone_names_no_rate():
    record = (
        '{"hatchery": {"name": "Corriemoor Fish Nursery"}, "figures": {"rearing_ponds": 25, '
        '"fingerlings_released_per_year": 143000, "staff": 16}, '
        '"typewriters_serviced_by": "Morrowgate Typewriter Clinic"}'
    )
    question = (
        "Whoever fixes the typewriters at Corriemoor Fish Nursery - how many repairs do they "
        "get through in a month, and what would that come to over a whole year?"
    )
    assert asked_number(record, question) is None  # "year" says no fingerlings
    assert asked_number(record, "How many fingerlings a year?") == "143000"
    trip = "Ferry: crossing minutes 45, fare 12"
    assert asked_number("Ferry: minutes 45, fare 12", "How many minutes does it take?") == "45"
    assert asked_number(trip, "How many minutes is the crossing?") == "45"


def test_the_way_there_names_no_field_of_the_first_record():
    schemas = {
        name: {"properties": {"name": {"type": "string"}}, "required": ["name"]}
        for name in ("harp_workshop_info", "get_hop_farm")
    }
    harps = (
        "Caddow String Works (卡多弦乐工坊), founded in 1932, has 11 luthiers who build about "
        "38 harps a year, and the workshop rents its building from Hazelby Hop Gardens."
    )
    question = (
        "Caddow String Works rents its building from a hop farm. How many tonnes of hops "
        "does that farm harvest per kiln each year?"
    )
    calls = [("harp_workshop_info", {"name": "Caddow String Works"})]
    step = ("get_hop_farm", {"name": "Hazelby Hop Gardens"})
    # "building" of the way there is no "build" of the luthiers' label
    assert named_next_step(calls, [harps], [False], question, schemas) == step


def test_a_refusal_copied_around_its_name_names_no_thing():
    tools = [
        {
            "type": "function",
            "function": {"name": name, "parameters": _SCHEMAS["get_route"]},
        }
        for name in ("get_wharf", "get_repair_shop")
    ]
    call = {"id": "w", "type": "function", "function": {"name": "get_wharf", "arguments": ""}}
    call["function"]["arguments"] = json.dumps({"name": "宾德尔滚筒修理行"}, ensure_ascii=False)
    messages = [
        {"role": "user", "content": "宾德尔滚筒修理行是哪一年开的？"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {
            "role": "tool",
            "tool_call_id": "w",
            "content": "ERROR | unknown wharf | 宾德尔滚筒修理行",
        },
    ]
    judge = CallJudge(ChatJob(messages=messages, tools=tools), ToolPolicy(), auto=True)
    copied = {"name": "ERROR | unknown wharf | 宾德尔滚筒修理行"}
    asked = {"function": {"name": "get_wharf", "arguments": json.dumps(copied)}}
    assert judge.names_no_thing(asked)
    other = {"name": "宾德尔滚筒修理行"}
    shop = {"function": {"name": "get_repair_shop", "arguments": json.dumps(other)}}
    assert not judge.names_no_thing(shop)
    off = CallJudge(
        ChatJob(messages=messages, tools=tools), ToolPolicy(refusals_not_names=False), auto=True
    )
    assert not off.names_no_thing(asked)


def _numeric(name: str, *parameters: str) -> dict:
    properties = {p: {"type": "number"} for p in parameters}
    schema = {"type": "object", "properties": properties, "required": list(parameters)}
    return {"type": "function", "function": {"name": name, "parameters": schema}}


def _text_tool(name: str, parameter: str) -> dict:
    properties = {parameter: {"type": "string"}}
    schema = {"type": "object", "properties": properties, "required": [parameter]}
    return {"type": "function", "function": {"name": name, "parameters": schema}}


def _arithmetic_turn(question: str, steps: list[tuple[str, str, str]]) -> list[dict]:
    messages: list[dict] = [{"role": "user", "content": question}]
    for at, (tool, arguments, result) in enumerate(steps):
        call = {
            "id": f"s{at}",
            "type": "function",
            "function": {"name": tool, "arguments": arguments},
        }
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"s{at}", "content": result})
    return messages


def test_a_tool_the_question_does_not_ask_for_is_no_step_after_the_sum():
    tools = [
        _numeric("subtract_amount", "amount", "less"),
        _numeric("divide_total", "total", "parts"),
        _text_tool("tally_letters", "text"),
        _numeric("miles_to_km", "miles"),
    ]
    steps = [
        ("subtract_amount", '{"amount": 250, "less": 70}', "180"),
        ("divide_total", '{"total": 180, "parts": 12}', "Each part: 15"),
    ]
    question = "We cooked 250 litres and served 70. Shared among 12 pots, how much is each?"
    judge = CallJudge(
        ChatJob(messages=_arithmetic_turn(question, steps), tools=tools), ToolPolicy(), auto=True
    )
    tally = {"function": {"name": "tally_letters", "arguments": '{"text": "180 letters"}'}}
    assert judge.after_the_sum(tally) and judge.rejected(tally)
    # a tool the question asks for by its kind is a step still
    asked = question.replace("how much is each?", "how many km is each, in miles?")
    asked_judge = CallJudge(
        ChatJob(messages=_arithmetic_turn(asked, steps), tools=tools), ToolPolicy(), auto=True
    )
    miles = {"function": {"name": "miles_to_km", "arguments": '{"miles": 15}'}}
    assert not asked_judge.after_the_sum(miles)
    # a question in Chinese says no English tool's kind: a converter is no step either
    chinese = "煮了250升汤，盛走了70升，剩下的平均分到12个锅里，每锅多少升？"
    zh_turn = ChatJob(messages=_arithmetic_turn(chinese, steps), tools=tools)
    zh = CallJudge(zh_turn, ToolPolicy(), auto=True)
    assert zh.after_the_sum(tally) and zh.after_the_sum(miles)
    # before the last step combined the results, nothing is judged so
    first = CallJudge(
        ChatJob(messages=_arithmetic_turn(question, steps[:1]), tools=tools),
        ToolPolicy(),
        auto=True,
    )
    assert not first.after_the_sum(tally)


def test_an_arithmetic_call_that_undoes_the_last_step_is_rejected():
    tools = [
        _numeric("multiply_pair", "p", "q"),
        _numeric("divide_amount", "dividend", "divisor"),
        _numeric("add_up", "a", "b"),
        _numeric("subtract_amount", "amount", "less"),
    ]
    question = "A room costs 120 a night. What do 4 nights come to?"
    made = [("multiply_pair", '{"p": 120, "q": 4}', "480")]
    job = ChatJob(messages=_arithmetic_turn(question, made), tools=tools)
    judge = CallJudge(job, ToolPolicy(), auto=True)
    undo = {"function": {"name": "divide_amount", "arguments": '{"dividend": 480, "divisor": 4}'}}
    assert judge.undoes_last_step(undo) and judge.rejected(undo)
    onward = {"function": {"name": "divide_amount", "arguments": '{"dividend": 480, "divisor": 3}'}}
    assert not judge.undoes_last_step(onward)
    taken = [("subtract_amount", '{"amount": 120, "less": 20}', "result = 100")]
    job = ChatJob(messages=_arithmetic_turn("120 less 20?", taken), tools=tools)
    judge = CallJudge(job, ToolPolicy(), auto=True)
    back = {"function": {"name": "add_up", "arguments": '{"a": 20, "b": 100}'}}
    assert judge.undoes_last_step(back)
    assert not judge.undoes_last_step(
        {"function": {"name": "add_up", "arguments": '{"a": 100, "b": 5}'}}
    )


@pytest.mark.parametrize(
    ("question", "value", "result", "off"),
    [
        (
            "《论语》主要记录的是哪位古代思想家和他弟子的言行？",
            '{"name": "主要记录"}',
            "No sawmill named '主要记录'. Known: Hollow Pine Sawmill (空松锯木厂), 灰谷锯木厂.",
            True,
        ),
        (
            "Who painted The Starry Night?",
            '{"name": "The Starry Night"}',
            "Error: No perfume distillery named 'The Starry Night'. Known: Amberwick Distillery",
            True,
        ),
        # a name of a kind the question says: the kind's word is shared
        (
            "How many staff does Amberwik Distillery have?",
            '{"name": "Amberwik Distillery"}',
            "Error: No perfume distillery named 'Amberwik Distillery'. Known: Amberwick Distillery",
            False,
        ),
        (
            "灰谷锯木场有几台锯？",
            '{"name": "灰谷锯木场"}',
            "No sawmill named '灰谷锯木场'. Known: Hollow Pine Sawmill (空松锯木厂), 灰谷锯木厂.",
            False,
        ),
        # a result that did not fail
        ("Who painted The Starry Night?", '{"name": "x"}', "Painted by Vincent van Gogh", False),
    ],
)
def test_failures_off_the_question(question: str, value: str, result: str, off: bool) -> None:
    assert failed_off_the_question(_turn(question, value, result)) is off


def test_a_refused_name_is_asked_of_a_lookup_by_key_before_a_tool_of_any_text():
    def tool(name: str, key: str) -> dict:
        parameters = {"type": "object", "properties": {key: {"type": "string"}}, "required": [key]}
        return {"type": "function", "function": {"name": name, "parameters": parameters}}

    question = "Velloria House gets its orchids from a nursery. What city is that nursery in?"
    refusal = "No orchid nursery named 'Velloria House'. Known: Moonpetal Nursery."
    refused = ([("find_orchid_nursery", '{"name": "Velloria House"}')], [refusal])
    messages = _steps(question, refused)

    def untried(*tools: dict) -> list:
        job = ChatJob(messages=messages, tools=[tool("find_orchid_nursery", "name"), *tools])
        return CallJudge(job, ToolPolicy(), auto=True).names_for_untried()

    text, by_name = tool("reverse_text", "text"), tool("fetch_distillery", "name")
    assert untried(text, by_name) == [("fetch_distillery", {"name": "Velloria House"})]
    # with no lookup by key, a tool of any text is still asked
    assert untried(text) == [("reverse_text", {"text": "Velloria House"})]


def test_a_failure_of_a_tool_the_question_names_is_on_the_question():
    messages = _turn(
        "What's the weather in Paris?",
        '{"city": "Paris"}',
        "Error: tool 'get_weather' failed: Unknown city 'Paris'. Ask for one of: 北京 (Beijing)",
    )
    assert failed_off_the_question(messages)  # as tool "f": nothing shared
    messages[1]["tool_calls"][0]["function"]["name"] = "get_weather"
    assert not failed_off_the_question(messages)


_ROPE_REFUSAL = (
    "No record for 'Whitlow Flats'. Known: Cordwell Ropewalk (考德威尔制绳场), Tarrin Lane "
    "Ropeworks (塔林巷绳坊), Hemsby Long Walk (赫姆斯比长绳坊)"
)
_CLOCK_REFUSAL = (
    "No record for '暮谷兰园温室里的'. Known: Hallbright & Sons (霍布莱特父子钟表坊), Tessaly "
    "Clockworks (泰萨利钟表行), Pellwick Clocks (佩尔维克钟坊)"
)


def test_a_refusal_lists_its_known_names_with_their_other_forms():
    assert known_names(_ROPE_REFUSAL) == [
        ("Cordwell Ropewalk", "考德威尔制绳场"),
        ("Tarrin Lane Ropeworks", "塔林巷绳坊"),
        ("Hemsby Long Walk", "赫姆斯比长绳坊"),
    ]
    assert known_names("Error: divide by zero: b must not be 0") == []
    assert known_names('{"name": "Whitlow Flats", "opened": 1821}') == []


@pytest.mark.parametrize(
    ("question", "refused", "record", "expected"),
    [
        (  # the refusal came first; the question says the tool's kind ("rope walk")
            "What year was the rope walk that supplies Whitlow Flats founded?",
            ("ropewalk_record", {"ropewalk": "Whitlow Flats"}, _ROPE_REFUSAL),
            (
                "salt_pan_info",
                {"site": "Whitlow Flats"},
                '{"name": "Whitlow Flats", '
                '"opened": 1821, "workers": 39, "rope_supplier": "Tarrin Lane Ropeworks"}',
            ),
            ("ropewalk_record", {"ropewalk": "Tarrin Lane Ropeworks"}),
        ),
        (  # a Chinese record names it in Chinese; the question refers back ("这家钟表坊")
            "暮谷兰园温室里的计时钟是哪家钟表坊做的？这家钟表坊一年能造多少座钟？",
            ("clockmaker_profile", {"workshop": "暮谷兰园温室里的"}, _CLOCK_REFUSAL),
            (
                "lookup_nursery",
                {"nursery_name": "暮谷兰园"},
                '{"name": "暮谷兰园", '
                '"founded": 1964, "staff": 43, "clock_supplier": "佩尔维克钟坊"}',
            ),
            ("clockmaker_profile", {"workshop": "佩尔维克钟坊"}),
        ),
        (  # no word of the kind, but the record's label: "the owner"
            "What year was the owner of Tarrin Lane Ropeworks born?",
            (
                "person_lookup",
                {"full_name": "Tarrin Lane Ropeworks"},
                "No record for 'Tarrin Lane Ropeworks'. Known: Oriel Vance (奥丽尔·万斯), "
                "Cuthbert Lowe (卡思伯特·洛)",
            ),
            (
                "ropewalk_record",
                {"ropewalk": "Tarrin Lane Ropeworks"},
                '{"name": "Tarrin Lane Ropeworks", "founded": 1836, "owner": "Cuthbert Lowe"}',
            ),
            ("person_lookup", {"full_name": "Cuthbert Lowe"}),
        ),
        (  # the question neither says the kind nor the label: a wrong tool's refusal
            "How many people work at Whitlow Flats?",
            ("ropewalk_record", {"ropewalk": "Whitlow Flats"}, _ROPE_REFUSAL),
            (
                "salt_pan_info",
                {"site": "Whitlow Flats"},
                '{"name": "Whitlow Flats", '
                '"workers": 39, "rope_supplier": "Tarrin Lane Ropeworks"}',
            ),
            None,
        ),
    ],
)
def test_a_refused_lookup_is_asked_the_known_name_a_record_gives(
    question: str, refused: tuple, record: tuple, expected: tuple | None
) -> None:
    for order in (0, 1):  # the refusal before the record, or after it
        calls = [refused, record] if order == 0 else [record, refused]
        earlier = [(tool, arguments) for tool, arguments, _ in calls]
        results = [result for _, _, result in calls]
        failed = [call is refused for call in calls]
        assert refused_kind_named(earlier, results, failed, question) == expected


def test_a_known_name_already_asked_is_no_step():
    earlier = [
        ("ropewalk_record", {"ropewalk": "Whitlow Flats"}),
        ("salt_pan_info", {"site": "Whitlow Flats"}),
        ("ropewalk_record", {"ropewalk": "Tarrin Lane Ropeworks"}),
    ]
    results = [
        _ROPE_REFUSAL,
        '{"name": "Whitlow Flats", "rope_supplier": "Tarrin Lane Ropeworks"}',
        '{"name": "Tarrin Lane Ropeworks", "founded": 1836}',
    ]
    question = "What year was the rope walk that supplies Whitlow Flats founded?"
    assert refused_kind_named(earlier, results, [True, False, False], question) is None


def _text_schema(key: str) -> dict:
    return {"type": "object", "properties": {key: {"type": "string"}}, "required": [key]}


_STUDIO_TOOLS = {
    "get_observatory": _text_schema("name"),
    "get_glass_studio": _text_schema("studio"),
    "person_profile": _text_schema("full_name"),
    "cheese_cave_info": _text_schema("cave_name"),
}


def test_a_chinese_record_leads_to_the_thing_the_question_points_at():
    question = "科凡山天文台的望远镜镜片是某家玻璃工作室做的。请问这家工作室的创始人家乡在哪里？"
    observatory = json.dumps(
        {"name": "科凡山天文台", "founded": 1958, "lens_supplier": "洛湄玻璃工作室"},
        ensure_ascii=False,
    )
    earlier = [("get_observatory", {"name": "科凡山天文台"})]
    step = named_next_step(earlier, [observatory], [False], question, _STUDIO_TOOLS)
    assert step == ("get_glass_studio", {"studio": "洛湄玻璃工作室"})  # its name's end said
    studio = json.dumps(
        {"name": "洛湄玻璃工作室", "founded": 1926, "founder": "伊内丝·哈尔瓦德"},
        ensure_ascii=False,
    )
    earlier.append(step)
    asked: list = []

    def pick(tools):
        asked.append(list(tools))
        return "person_profile"

    following = named_next_step(
        earlier, [observatory, studio], [False, False], question, _STUDIO_TOOLS, pick=pick, since=1
    )
    assert following == ("person_profile", {"full_name": "伊内丝·哈尔瓦德"})  # 创始人: founder
    assert asked == []  # a name written with "·" is the one lookup of people's, unpicked


def test_a_chinese_record_names_a_thing_of_its_own_kind_the_question_points_at():
    question = "奥索里洞窖的档案里登记了一个姊妹窖，那个姊妹窖是哪一年建立的？"
    cave = json.dumps(
        {"name": "奥索里洞窖", "founded": 1931, "sister_cave": "格里斯霍尔特奶酪洞"},
        ensure_ascii=False,
    )
    earlier = [("cheese_cave_info", {"cave_name": "奥索里洞窖"})]
    step = named_next_step(earlier, [cave], [False], question, _STUDIO_TOOLS)
    assert step == ("cheese_cave_info", {"cave_name": "格里斯霍尔特奶酪洞"})  # 姊妹: sister
    # the record's own founding year answers a question that points at nothing else
    plain = "奥索里洞窖是哪一年建立的？"
    assert named_next_step(earlier, [cave], [False], plain, _STUDIO_TOOLS) is None


def test_chinese_links_are_a_records_chinese_values_but_its_name():
    record = (
        '{"name": "格里斯霍尔特奶酪洞", "founded": 1804, "sister_cave": "贝尔沼奶酪窖", '
        '"note": "ok"}'
    )
    assert chinese_links(record) == [("sister_cave", "贝尔沼奶酪窖")]


def test_a_chinese_link_is_followed_once_along_its_label():
    question = "奥索里洞窖的档案里登记了一个姊妹窖，那个姊妹窖是哪一年建立的？"
    first = '{"name": "奥索里洞窖", "founded": 1931, "sister_cave": "格里斯霍尔特奶酪洞"}'
    second = '{"name": "格里斯霍尔特奶酪洞", "founded": 1804, "sister_cave": "贝尔沼奶酪窖"}'
    earlier = [
        ("cheese_cave_info", {"cave_name": "奥索里洞窖"}),
        ("cheese_cave_info", {"cave_name": "格里斯霍尔特奶酪洞"}),
    ]
    step = named_next_step(
        earlier, [first, second], [False, False], question, _STUDIO_TOOLS, since=1
    )
    assert step is None  # the sister's sister is no step


_WORKSHOP_TOOLS = {
    "violin_workshop_record": _text_schema("workshop"),
    "luthier_profile": _text_schema("person"),
    "bell_tower_record": _text_schema("tower"),
}


def test_a_chinese_records_one_link_is_the_way_on_when_the_question_points_past_it():
    # nothing of the question says 师傅's name or "master": the record leads nowhere else
    question = "雾溪提琴坊的首席制琴师当年在哪家琴坊学的手艺？那家琴坊是哪一年创办的？"
    workshop = json.dumps(
        {"name": "雾溪提琴坊", "founded": 1978, "luthiers": 4, "master_luthier": "罗莎·芬奇"},
        ensure_ascii=False,
    )
    earlier = [("violin_workshop_record", {"workshop": "雾溪提琴坊"})]
    step = named_next_step(earlier, [workshop], [False], question, _WORKSHOP_TOOLS)
    assert step == ("luthier_profile", {"person": "罗莎·芬奇"})
    off = named_next_step(earlier, [workshop], [False], question, _WORKSHOP_TOOLS, lone_links=False)
    assert off is None
    # the last workshop's one link leads back to a kind the turn looked up: the way ends
    luthier = json.dumps(
        {"name": "罗莎·芬奇", "born": 1961, "trained_at": "灰桥提琴坊"}, ensure_ascii=False
    )
    last = json.dumps(
        {"name": "灰桥提琴坊", "founded": 1911, "master_luthier": "伊娃·霍恩"},
        ensure_ascii=False,
    )
    chain = [
        *earlier,
        ("luthier_profile", {"person": "罗莎·芬奇"}),
        ("violin_workshop_record", {"workshop": "灰桥提琴坊"}),
    ]
    results = [workshop, luthier, last]
    ended = named_next_step(chain, results, [False] * 3, question, _WORKSHOP_TOOLS, since=2)
    assert ended is None
    # a question that points at nothing past the record is answered by it
    plain = "雾溪提琴坊是哪一年创办的？"
    assert named_next_step(earlier, [workshop], [False], plain, _WORKSHOP_TOOLS) is None


def test_a_thing_the_chinese_question_speaks_of_after_de_is_pointed_at():
    question = "石湾钟楼的姊妹钟楼是哪一年建的？"  # no 那/这/哪: the 的 speaks of it
    tower = json.dumps(
        {"name": "石湾钟楼", "built": 1820, "bells": 8, "sister": "柳岸钟楼", "keeper": "林默"},
        ensure_ascii=False,
    )
    earlier = [("bell_tower_record", {"tower": "石湾钟楼"})]
    step = named_next_step(earlier, [tower], [False], question, _WORKSHOP_TOOLS)
    assert step == ("bell_tower_record", {"tower": "柳岸钟楼"})


def test_names_of_a_lookups_kind_asked_of_another_lookup_only_are_asked_of_their_own():
    question = "灰岸盐场、白洼盐滩、马罗湾盐田这三处，哪一处每年的产盐量最少？"
    lookups = {"salt_pan_info": "site", "opening_hours": "place"}
    names = ["马罗湾盐田", "白洼盐滩", "灰岸盐场"]
    earlier = [("opening_hours", {"place": name}) for name in names]
    hours = ["06:30–13:30，每天开放", "07:30–15:30，周日休息", "06:00–14:00，每天开放"]
    due = kind_lookups_skipped(earlier, hours, [False] * 3, question, lookups)
    assert due == [
        ("salt_pan_info", {"site": "灰岸盐场"}),
        ("salt_pan_info", {"site": "白洼盐滩"}),
        ("salt_pan_info", {"site": "马罗湾盐田"}),
    ]
    hours_asked = "灰岸盐场、白洼盐滩、马罗湾盐田这三处的开放时间分别是什么？"
    assert kind_lookups_skipped(earlier, hours, [False] * 3, hours_asked, lookups) == []
    own = [("salt_pan_info", {"site": name}) for name in names]
    assert kind_lookups_skipped(own, ["{}"] * 3, [False] * 3, question, lookups) == []


def test_a_record_of_one_number_under_the_asked_label_answers_the_chain():
    question = "What year was the owner of the rope walk that supplies Whitlow Flats born?"
    schemas = {
        "ropewalk_record": _text_schema("ropewalk"),
        "person_lookup": _text_schema("full_name"),
    }
    earlier = [
        ("ropewalk_record", {"ropewalk": "Tarrin Lane Ropeworks"}),
        ("person_lookup", {"full_name": "Cuthbert Lowe"}),
    ]
    rope = '{"name": "Tarrin Lane Ropeworks", "founded": 1836, "owner": "Cuthbert Lowe"}'
    person = '{"name": "Cuthbert Lowe", "born": 1952, "hometown": "Barrowden Quay"}'
    results = [rope, person]
    step = named_next_step(
        earlier, results, [False, False], question, schemas, pick=lambda t: t[0], since=1
    )
    assert step is None  # the hometown is no rope walk to look up: "born" is in
