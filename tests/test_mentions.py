"""The offered tools a text answer names (toolkit.local.decision.mentions)."""

from __future__ import annotations

import pytest

from toolkit.local.decision.mentions import (
    declines_tools,
    named_tools,
    question_names,
    refuses,
    says_kind,
    talks_about_tools,
    writes_out,
)


@pytest.mark.parametrize(
    ("text", "tools", "named"),
    [
        ("you can call the `ChaFod` function with the argument", ["ChaFod", "other"], ["ChaFod"]),
        ('Mark the function as "ThinQ_Connect" and call it', ["ThinQ_Connect"], ["ThinQ_Connect"]),
        # dots and underscores written either way
        ("call `employee.fetch_data` twice", ["employee_fetch_data"], ["employee_fetch_data"]),
        ("the uber_ride tool.", ["uber.ride"], ["uber.ride"]),
        # a dotted name's last part, when it is no plain word
        ("use fetch_data for each", ["employee.fetch_data"], ["employee.fetch_data"]),
        ("use listExports", ["aws.lexv2.listExports"], ["aws.lexv2.listExports"]),
    ],
)
def test_a_named_tool_is_found(text: str, tools: list[str], named: list[str]) -> None:
    assert named_tools(text, tools) == named


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        # a plain word is the language, not a tool
        ("Search the web for it, or search a map.", ["search"]),
        ("the last part alone is a plain word: get it", ["weather.get"]),
        # a name inside a longer word or a longer dotted name
        ("call get_weather_data", ["get_weather"]),
        ("use math.sin.cos", ["math.sin"]),
        ("you can use the `math.sin` function", ["calculate_sine"]),
    ],
)
def test_no_tool_is_named(text: str, tools: list[str]) -> None:
    assert named_tools(text, tools) == []


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ('Answer: ```json\n[\n  "book_hotel",\n  "function-name": "book', ["book_hotel"]),
        ("Answer: <function-name>book_hotel</function-name>", ["book_hotel"]),
        ('{"function": "book_hotel"', ["book_hotel"]),
        # its values set after its name: a call in a form of its own
        ("Answer: book_hotel, arguments: city=Paris, nights=2", ["book_hotel"]),
        ("Call book_hotel with city = 'Paris'", ["book_hotel"]),
        # named in prose, quoted or not: a description, not a call written out
        ("you can call the `book_hotel` function with the argument", []),
        ('Mark the function as "book_hotel" and call it', []),
        ("```python\nprint(1)\n```", []),  # code, but no tool in it
        ("x = 2 solves it; book_hotel then helps", []),  # a value set before the name
    ],
)
def test_a_tool_named_in_code_is_a_call_written_out(text: str, written: list[str]) -> None:
    assert writes_out(text, ["book_hotel", "other"]) == written


@pytest.mark.parametrize(
    ("question", "declines"),
    [
        ("Quick one, nothing to look up: which planet is called the Red Planet?", True),
        ("Without using any tools, what is 2 + 2?", True),
        ("Answer from your own memory: who wrote Hamlet?", True),
        ("Don't call a function, just say hello.", True),
        ("不用查，直接告诉我水的沸点是多少？", True),
        ("不要调用工具，讲个笑话吧。", True),
        ("Look up the weather in Paris.", False),
        ("Can you check the stock of widgets?", False),
        ("帮我查一下北京的天气。", False),
        ("你别查了，直接说吧。", True),
        ("帮我分别查一下两家工厂的员工人数。", False),  # 分别 "each", no "don't"
        ("请特别查一下这条线路。", False),
    ],
)
def test_a_question_that_asks_for_no_lookup_is_read(question: str, declines: bool) -> None:
    assert declines_tools(question) is declines


@pytest.mark.parametrize(
    ("question", "tools", "named"),
    [
        ("Want an order from McDonald's on Uber Eats? Two Big Macs.", ["uber.eat.order"], True),
        ("Can you find me a nice movie directed by James Gray?", ["Movies_3_FindMovies"], True),
        ("Who discovered the neutron?", ["get_discoverer"], True),  # "discovered", "discoverer"
        ("What is the current time in Sydney?", ["get_local_time"], False),  # "local" unsaid
        ("When will the sun set in Beijing today?", ["calculate_sunrise"], False),
        ("Who was the US president during the Civil War?", ["us_history.get_president"], False),
        ("Find the weather", ["get"], False),  # a name of nothing but how it works
        ("Find me a restaurant in Rome", ["find_restaurant", "book_table"], True),
    ],
)  # fmt: skip
def test_a_question_names_a_tool_by_the_words_of_what_it_is_about(question, tools, named):
    assert bool(question_names(question, tools)) is named


@pytest.mark.parametrize(
    ("text", "talks"),
    [
        ('Mark the function as "ThinQ_Connect" and call it with the provided parameters.', True),
        ("To answer this question, I cannot call any function.", True),
        ("you can use the `math.sin` function from the `math` module", True),
        ("you can use the following function:\n\n```json", True),
        ("Answer: <function-name>uber_eat_order</function-name>", True),
        # answers, a function in the mathematical sense among them
        ("The integral of the function f(x) = x^2 from 1 to 3 is 26/3.", False),
        ("The perimeter is 30 meters.", False),
    ],
)
def test_a_text_that_talks_about_the_tools(text: str, talks: bool) -> None:
    assert talks_about_tools(text, ["other_tool"]) is talks


@pytest.mark.parametrize(
    ("question", "tool", "says"),
    [
        ("How tall is that lock?", "get_canal_lock", True),
        # the kind's maker: "coopers" of a cooperage, "bakers" of a bakery, "potters"
        ("How many coopers work at that place?", "fetch_cooperage", True),
        ("How many bakers work there?", "bakery_info", True),
        ("Ask the potters.", "get_pottery", True),
        # a short stem, or one far from the kind's word, says nothing of it
        ("How many coopers work at that place?", "find_tile_kiln", False),
        ("Is it cool?", "fetch_cooperage", False),
    ],
)
def test_a_question_says_a_kind_by_its_word_or_its_maker(question: str, tool: str, says: bool):
    assert says_kind(question, tool) is says


@pytest.mark.parametrize(
    "text",
    [
        "I'm sorry, but I can't assist with that.",
        "Sorry, I don't know.",
        "Unfortunately, I don't have real-time data.",
        "I cannot look that up.",
        "I am unable to help with that request.",
        "I don't have access to flight prices.",
        "抱歉，我无法查询。",
        "很抱歉，我没有这个信息。",
        "我无法回答这个问题。",
        "Answer: 无法确定",
        "答：不知道。",
    ],
)
def test_a_text_that_opens_by_declining_refuses(text: str) -> None:
    assert refuses(text)


@pytest.mark.parametrize(
    "text",
    [
        "The capital of Australia is Canberra.",
        "Sorrento is a town in Italy.",  # a word that begins like "sorry"
        "It can't be colder than absolute zero.",  # "can't" later in the answer
        "黄山的美景让人无法想象。",  # not at its opening
        "Answer: 42",
        "",
    ],
)
def test_an_answer_does_not_refuse(text: str) -> None:
    assert not refuses(text)


def test_two_words_of_the_question_written_together_say_a_kind():
    question = "What year was the owner of the rope walk that supplies Whitlow Flats born?"
    assert says_kind(question, "ropewalk_record")
    assert not says_kind("Who owns the rope that walks?", "ropewalk_record")
