"""A call that failed at a text value, and the forms of it worth one more try."""

from __future__ import annotations

import json

import pytest
from helpers import typed_tool

from toolkit.local.decision.grounding import CallHistory
from toolkit.local.decision.phrases import conversation_phrases
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.retries import (
    failure_to_retry,
    forms_of,
    is_form_of,
    keys_held,
    listed_items,
    listed_names,
    named_keys,
    parts_of,
    renamed_failures,
    rerouted_failures,
)
from toolkit.local.decision.turn import unfit_failures

RATIO = ToolPolicy().slip_ratio


def _call(call_id: str, name: str, **arguments: object) -> dict:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
    }


def _turn(question: str, *steps: list[tuple[dict, str]]) -> list[dict]:
    messages: list[dict] = [{"role": "user", "content": question}]
    for step in steps:
        messages.append({"role": "assistant", "content": "", "tool_calls": [c for c, _ in step]})
        messages += [{"role": "tool", "tool_call_id": c["id"], "content": r} for c, r in step]
    return messages


@pytest.mark.parametrize(
    ("value", "failed", "expected"),
    [
        ("寒江雪", "《寒江雪》", True),  # the brackets it was quoted in
        ("widgets", "widget", True),  # a slip within the word
        ("Crater Lake", "Cater Lake", True),
        ("bolts", "bolts and gears", True),  # an item of the list it joins
        ("gears", "bolts and gears", True),
        ("螺母", "螺丝和螺母", True),
        ("bolts and", "bolts and gears", False),  # not an item
        ("spring", "spring rolls", False),  # some of its words, not an item
        ("Xiamen", "Xiamen North", False),
        ("in Paris", "Paris", False),  # a word added
        ("widget' in", "widget", False),  # an error message's words around it
        ("Berlin", "Paris", False),  # another value
        ("widget", "widget", False),  # the same value
        ("", "widget", False),
        ("林小雨这", "林小雨", False),  # a run without spaces run on, or cut short
        ("数学和物", "数学和物理", False),
        ("数学", "数学和物理", True),  # but an item of the list it joins
        ("德尔滚筒修理行是", "宾德尔滚筒修理行", False),  # the run moved on by a character
        ("宾德尔滚筒修埋行", "宾德尔滚筒修理行", True),  # a character slipped in its place
    ],
)
def test_a_form_of_a_refused_value(value: str, failed: str, expected: bool) -> None:
    assert is_form_of(value, failed, RATIO) is expected


def test_the_forms_worth_trying_are_the_bare_value_and_the_conversations_forms_of_it() -> None:
    messages = _turn(
        "How many widgets are in stock?",
        [(_call("c1", "get_stock", item="widget"), "Error: No item named 'widget'.")],
    )
    phrases = conversation_phrases(messages)
    assert forms_of("widget", phrases, RATIO) == ["widgets"]
    assert forms_of("《寒江雪》", [], RATIO) == ["寒江雪"]
    # a record's name copied with its translation: each on its own, a lost bracket or not
    for copied in ("Elm Yard (榆场)", "Elm Yard (榆场", "Elm Yard（榆场）"):
        assert forms_of(copied, [], RATIO) == ["Elm Yard", "榆场"]
    assert forms_of("screws", conversation_phrases(_turn("How many screws?")), RATIO) == ["screw"]
    assert forms_of("spring rolls", [], RATIO) == ["spring roll"]
    assert forms_of("berries", [], RATIO) == ["berry"]
    assert forms_of("boxes", [], RATIO) == ["box", "boxe"]
    assert forms_of("bolts and gears", [], RATIO) == ["bolts", "gears"]
    assert forms_of("寒江雪", [], RATIO) == []  # nothing to change
    assert forms_of("Paris", [], RATIO) == []  # a name has no plural
    assert forms_of("Xiamen North", [], RATIO) == []


def test_the_items_a_refusal_lists_that_hold_the_refused_words() -> None:
    error = (
        "Error: Plan 'Senior' is not in the catalogue. Plans: Lite / 轻享卡; Smart / 智享卡; "
        "Senior Care / 长者卡. Check the arguments, or answer without this tool."
    )
    listed = listed_items(error)
    assert "Senior Care" in listed and "长者卡" in listed
    assert "Plan 'Senior' is not in the catalogue" not in listed  # too long to be a key
    assert forms_of("Senior", [], RATIO, listed) == ["Senior Care"]
    unknown = listed_items("Error: Garage 'airport garage' was not found. Check the arguments.")
    assert forms_of("Airport Garage", [], RATIO, unknown) == []
    quoted = listed_items("Error: Unknown city 'Paris'. Ask for one of: 北京 (Beijing), 上海.")
    assert forms_of("Paris", [], RATIO, quoted) == []


def test_the_keys_a_refusal_lists_that_the_user_names() -> None:
    rooms = (
        "Error: tool 'get_room_rate' raised ValueError: Room type '家庭 suites' not found at the "
        "Seabreeze Hotel. Room types: 标准间 (standard room), 家庭套房 (family suite)."
    )
    asked = 'What is the nightly price of one of the "Family Suites" at the Seabreeze Hotel?'
    named = named_keys(rooms, "家庭 suites", asked)
    assert named == ["family suite"]  # not "Seabreeze Hotel": it shares no word with the value
    assert forms_of("家庭 suites", [], RATIO, listed_items(rooms), named) == ["family suite"]
    run_on = "Lantern Harbor and Copper Canyon at the Meeple Corner Café: price"
    games = (
        f"Error: Board game '{run_on}' not found. Known games: 灯塔港 (Lantern Harbor), "
        "铜峡谷 (Copper Canyon), 竹简 (Bamboo Scrolls)."
    )
    asked = "What do Lantern Harbor and Copper Canyon cost at the Meeple Corner Café?"
    assert named_keys(games, run_on, asked) == ["Lantern Harbor", "Copper Canyon"]
    both = ["Lantern Harbor", "Copper Canyon"]
    assert forms_of(run_on, [], RATIO, listed_items(games), both) == both
    # of the keys the user names, the one the value holds: a verb written into the name
    theatres = (
        "No puppet theatre named '包下缠线木偶剧场'. Known: Tangled String Theatre (缠线木偶剧场), "
        "Paper Moon Puppet Theatre (纸月木偶剧场), Thimble Stage (顶针木偶剧场)."
    )
    asked = "我想包下缠线木偶剧场、纸月木偶剧场和顶针木偶剧场的全部座位，一共是多少个座位？"
    named = named_keys(theatres, "包下缠线木偶剧场", asked)
    assert named == ["缠线木偶剧场", "纸月木偶剧场", "顶针木偶剧场"]
    assert forms_of("包下缠线木偶剧场", [], RATIO, listed_items(theatres), named) == [
        "缠线木偶剧场"
    ]
    # with no key held whole, the keys that hold all of a value the user wrote, and more
    assert named_keys(games, "bamboo", "What does Bamboo cost?") == ["Bamboo Scrolls"]
    classes = "Error: Class '瑜伽' not found. Classes: 动感单车 (Spin Cycling), 流瑜伽 (Flow Yoga)."
    assert named_keys(classes, "瑜伽", "巅峰健身的瑜伽课多长时间？") == ["流瑜伽"]
    assert named_keys(classes, "巅峰健身的瑜伽课", "巅峰健身的瑜伽课多长时间？") == []
    trails = "Error: Trail '云-Top loop' not found. Known trails: 云顶环线 (Cloudtop Loop)."
    assert named_keys(trails, "云-Top loop", "How steep is the Cloud-Top loop?") == [
        "Cloudtop Loop"
    ]
    # keys the user does not name, or an error that lists nothing: none
    assert named_keys(games, "Chess", "What does Chess cost?") == []
    assert named_keys(games, "Copper Kettle", "What does the Copper Kettle cost?") == []
    assert named_keys("Error: No exam record found for student '张伟'.", "张伟", "张伟的数学") == []


def test_the_parts_of_a_value_that_lists_items() -> None:
    assert parts_of("bolts and gears") == ["bolts", "gears"]
    assert parts_of("Dune, Hamlet") == ["Dune", "Hamlet"]
    assert parts_of("螺丝、螺母") == ["螺丝", "螺母"]
    assert parts_of("Andorra") == []  # "and" inside a word joins nothing
    assert parts_of("spring rolls") == []
    # a comma before the last "and" joins no empty item
    assert parts_of("Brill, Kestle, and Dunmore") == ["Brill", "Kestle", "Dunmore"]
    # the list's items are its forms; a phrase of the question that lists some again is none
    phrases = ["Brill, Kestle and Dunmore", "Kestle and Dunmore", "Dunmore"]
    forms = forms_of("Brill, Kestle and Dunmore", phrases, 0.85)
    assert forms[:3] == ["Brill", "Kestle", "Dunmore"]
    assert "Kestle and Dunmore" not in forms
    # nor an item of the refusal that echoes part of the list
    echoed = forms_of(
        "Brill, Kestle and Dunmore",
        [],
        0.85,
        listed_items("ERROR | unknown | Brill, Kestle and Dunmore"),
    )
    assert echoed[:3] == ["Brill", "Kestle", "Dunmore"] and "Kestle and Dunmore" not in echoed
    # the words a question opens with, copied into the name, are left out
    assert forms_of("听说奎尔磨坊", [], 0.85)[0] == "奎尔磨坊"


def test_the_last_steps_failed_call_with_a_text_value_is_retried() -> None:
    failed = _call("c1", "get_stock", item="widget")
    messages = _turn("How many widgets?", [(failed, "Error: No item named 'widget'.")])
    assert failure_to_retry(messages) == (
        "get_stock",
        {"item": "widget"},
        "Error: No item named 'widget'.",
    )


def test_a_call_that_succeeded_or_has_no_text_is_not_retried() -> None:
    ok = _turn("How many widgets?", [(_call("c1", "get_stock", item="widgets"), "120")])
    assert failure_to_retry(ok) is None
    numbers = _turn("Divide 1 by 0", [(_call("c1", "divide", a=1, b=0), "Error: division by 0")])
    assert failure_to_retry(numbers) is None


def test_a_tool_that_failed_twice_this_turn_is_not_retried_again() -> None:
    first = (_call("c1", "get_stock", item="widget"), "Error: No item named 'widget'.")
    second = (_call("c2", "get_stock", item="widgets"), "Error: No item named 'widgets'.")
    assert failure_to_retry(_turn("How many widgets?", [first], [second])) is None


def test_an_earlier_step_that_failed_is_not_the_last_steps() -> None:
    failed = (_call("c1", "get_stock", item="widget"), "Error: No item named 'widget'.")
    answered = (_call("c2", "add", x=1, y=2), "3")
    assert failure_to_retry(_turn("How many widgets?", [failed], [answered])) is None


def test_a_failed_result_answers_nothing_about_the_values_it_repeats() -> None:
    failed = (_call("c1", "get_stock", item="bolts and gears"), "Error: No 'bolts and gears'.")
    history = CallHistory(_turn("How many bolts and gears?", [failed]))
    bolts = _call("c2", "get_stock", item="bolts")
    assert not history.redundant(bolts)  # the error names bolts, but says nothing of them
    assert history.answered == {}  # and the failed call asked for nothing yet
    assert history.redundant(failed[0])  # the same call again is still a repeat


def test_two_refusals_of_one_tool_in_a_step_are_retried_when_the_user_names_a_key() -> None:
    trains = "Trains: 晨曦号 (Dawn Express), 蓝鲸号 (Blue Whale)."
    question = "How long are the Dawn Express and then the Blue Whale for Stone Bay altogether?"
    messages = [
        {"role": "user", "content": question},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                _call("c1", "get_train", train="Blue Whale for Stone Bay"),
                _call("c2", "get_train", train="Fog Harbor to Jiangcheng"),
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": f"Error: 'Blue Whale for Stone Bay' {trains}",
        },
        {
            "role": "tool",
            "tool_call_id": "c2",
            "content": f"Error: 'Fog Harbor to Jiangcheng' {trains}",
        },
    ]
    assert failure_to_retry(messages, question)[1] == {"train": "Blue Whale for Stone Bay"}
    assert failure_to_retry(messages) is None  # without the user's words: two refusals


def test_values_one_tool_failed_at_are_asked_of_the_tool_that_answered_for_one() -> None:
    question = "低语洞、灯厅洞和枭石洞这三个洞，平均深度是多少米？"
    wrong = [
        (_call(f"b{i}", "get_bridge", cave=cave), f"not found: {cave}. Known bridges: 鸥翼桥")
        for i, cave in enumerate(["枭石洞", "灯厅洞", "低语洞"])
    ]
    right = [(_call("c0", "get_cave", cave="低语洞"), "Whisper Cave (低语洞): depth 142 m")]
    assert rerouted_failures(_turn(question, wrong, right)) == [
        ("get_cave", {"cave": "枭石洞"}),
        ("get_cave", {"cave": "灯厅洞"}),
    ]
    assert rerouted_failures(_turn(question, wrong)) == []  # no tool answered for one yet
    # once asked, a value is not asked again; nor is one another call answered for
    asked = [(_call("c1", "get_cave", cave="枭石洞"), "not found: 枭石洞")]
    answered = [(_call("b3", "get_bridge", cave="灯厅洞"), "Lantern Hall (灯厅洞): depth 96 m")]
    assert rerouted_failures(_turn(question, wrong, right, asked, answered)) == []
    # a success with a value no failed call held shows nothing
    other = [(_call("c2", "get_cave", cave="鸥翼洞"), "Gullwing Cave: depth 12 m")]
    assert rerouted_failures(_turn(question, wrong, other)) == []
    # the failed calls must hold one text value each, the answering call one too
    two = [(_call("d0", "get_bridge", cave="枭石洞", city="x"), "not found")]
    assert rerouted_failures(_turn(question, two, wrong[2:], right)) == []
    # an answering value that holds a failed one whole, words added, answered for it
    longer = [(_call("c3", "get_cave", cave="低语洞 Cave"), "Whisper Cave (低语洞): depth 142 m")]
    assert rerouted_failures(_turn(question, wrong, longer)) == [
        ("get_cave", {"cave": "枭石洞"}),
        ("get_cave", {"cave": "灯厅洞"}),
    ]
    # a word that only begins another is not held whole
    part = [(_call("e0", "get_bridge", cave="Owl"), "not found: Owl")]
    owls = [(_call("e1", "get_cave", cave="Owlstone Cave"), "Owlstone Cave: depth 80 m")]
    assert rerouted_failures(_turn(question, part, wrong[:1], owls)) == []


def test_a_value_that_names_another_tools_kind_is_asked_of_that_tool() -> None:
    tools = [
        typed_tool("get_ski_lift", lift="string"),
        typed_tool("get_mountain_hut", hut="string"),
        typed_tool("add", a="number", b="number"),
    ]
    question = "How many beds does the hut at the top of the Larkspur lift have?"
    failed = [(_call("h0", "get_mountain_hut", hut="Larkspur lift"), "not found: Larkspur lift")]
    assert rerouted_failures(_turn(question, failed), tools) == [
        ("get_ski_lift", {"lift": "Larkspur lift"})
    ]
    hut = [(_call("h1", "get_mountain_hut", hut="Larkspur hut"), "not found: Larkspur hut")]
    assert rerouted_failures(_turn(question, hut), tools) == []  # the failed tool's own kind
    asked = [(_call("l0", "get_ski_lift", lift="Larkspur lift"), "Larkspur Lift: 1,850 m")]
    assert rerouted_failures(_turn(question, failed, asked), tools) == []  # asked already


def test_a_failed_value_another_tool_answered_for_is_not_tried_again() -> None:
    question = "How many beds does the hut at the top of the Larkspur lift have?"
    step = [
        (_call("h0", "get_mountain_hut", hut="Larkspur lift"), "not found: Larkspur lift"),
        (_call("l0", "get_ski_lift", lift="Larkspur lift"), "Larkspur Lift: top at Pinecrest"),
    ]
    assert failure_to_retry(_turn(question, step), question) is None
    assert failure_to_retry(_turn(question, step[:1]), question) is not None


_KNOWN_DEPOTS = (
    "Error: unknown depot '{}'. Known depots: Ashby Tram Depot (阿什比电车厂), "
    "Corwen Tram Depot (科文电车厂), Dunlow Tram Depot (邓洛电车厂)."
)


def test_names_written_short_are_asked_again_as_the_keys_the_refusals_list() -> None:
    question = "阿什比电车厂、科文电车厂和邓洛电车厂一共有多少辆电车？"
    short = [
        (_call(f"d{i}", "get_depot", depot=value), _KNOWN_DEPOTS.format(value))
        for i, value in enumerate(["阿什比电车", "科文电车", "洛电车厂"])
    ]
    assert renamed_failures(_turn(question, short)) == [
        ("get_depot", {"depot": "阿什比电车厂"}),
        ("get_depot", {"depot": "科文电车厂"}),
        ("get_depot", {"depot": "邓洛电车厂"}),
    ]
    # one refusal alone is left to the model's own retry
    assert renamed_failures(_turn(question, short[:1])) == []
    # a key asked already, or a value no key of the user's holds, is not asked again
    asked = [(_call("d9", "get_depot", depot="阿什比电车厂"), "Ashby Tram Depot: 40 trams")]
    assert renamed_failures(_turn(question, asked, short[1:2])) == []
    unnamed = [(_call("x0", "get_depot", depot="Moonbase"), _KNOWN_DEPOTS.format("Moonbase"))]
    assert renamed_failures(_turn(question, short[:1] + unnamed)) == []


def test_failures_of_tools_the_question_never_names_set_the_tools_aside() -> None:
    refused = [(_call("h0", "get_mountain_hut", hut="France"), "Error: unknown hut 'France'.")]
    tools = [
        typed_tool("get_mountain_hut", hut="string"),
        typed_tool("get_ski_lift", lift="string"),
        typed_tool("count_parts", part="string"),
    ]
    tools[2]["function"]["description"] = "Count the parts of one kind in the workshop."
    messages = _turn("What's the capital of France?", refused)
    assert unfit_failures(messages, tools)
    # the question says a tool's name or description words (spaces aside, a word's start),
    # or a call answered, or it is Chinese
    for question in [
        "Which hut is highest in France?",
        "A ski-lift in France?",
        "How many bolts are in the workshops of France?",
    ]:
        assert not unfit_failures(_turn(question, refused), tools), question
    answered = [(_call("h1", "get_ski_lift", lift="Alpe"), "Alpe lift: 1200 m")]
    assert not unfit_failures(_turn("What's the capital of France?", refused, answered), tools)
    assert not unfit_failures(_turn("法国的首都是哪里？", refused), tools)
    # a Chinese question asked of a lookup whole, or a clause of it and more: no thing named
    question = "一年十二个月里，哪个月的天数最少？"
    whole = [(_call("h2", "get_mountain_hut", hut=question), "Error: unknown hut.")]
    assert unfit_failures(_turn(question, whole), tools)
    clause = [(_call("h3", "get_mountain_hut", hut="一年十二个月里，哪个月"), "Error: no hut.")]
    assert unfit_failures(_turn(question, clause), tools)
    named = [(_call("h4", "get_mountain_hut", hut="雪松小屋"), "Error: unknown hut.")]
    assert not unfit_failures(_turn("雪松小屋有几张床？", named), tools)
    # asked whole, but it writes names of businesses (铁匠铺, "smithy"): a lookup should do
    smithies = "阿什伯恩铁匠铺和基尔布莱德铁匠铺，去年谁打的铁门更多？"
    whole = [(_call("h5", "get_mountain_hut", hut=smithies), "Error: unknown hut.")]
    assert not unfit_failures(_turn(smithies, whole), tools)
    assert not unfit_failures([{"role": "user", "content": "What's the capital of France?"}], tools)


def test_names_listed_in_one_value_are_told_from_one_name_with_a_joining_word() -> None:
    for value in (
        "Brill, Kestle and Dunmore",
        "Brill Wharf and Kestle Quay",
        "奎伦、佩洛和邓马罗",
        "Brackwell, Fennimore and Ostrand bogs",  # the list's kind after its last name
        "Skelwith or Varden Ridge",  # one or the other
    ):
        assert listed_names(value), value
    for value in (
        "Kessly Key & Ribbon",  # one name with "&" in it
        "Pride and Prejudice",  # one title
        "Museum of Modern Art, New York",  # one place
        "The text does not say, therefore I cannot answer, and I stop.",  # clauses
        "Bolts",
    ):
        assert not listed_names(value), value


def test_a_name_cut_at_its_ampersand_is_tried_whole() -> None:
    from toolkit.local.decision.retries import ampersand_name

    question = "How many ribbons do Kessly Key & Ribbon and Pellory Clocks & Sons keep?"
    assert ampersand_name("Kessly Key", question) == "Kessly Key & Ribbon"
    assert ampersand_name("Pellory Clocks", question) == "Pellory Clocks & Sons"
    assert ampersand_name("Kessly", question) is None  # "Key" comes next, not "&"
    assert ampersand_name("", question) is None


def test_a_value_whose_parts_the_question_lists_is_a_list() -> None:
    from toolkit.local.decision.retries import listed_by_question

    question = "I'm torn between Wrenfield and Lirrick for a new harp."
    assert listed_by_question("Wrenfield, Lirrick", question)
    assert not listed_by_question("Paris, France", "What's the weather in Paris, France?")
    assert not listed_by_question("Wrenfield", question)  # one part
    assert not listed_by_question("Lirrick, Wrenfield", "Wrenfield or Lirrick?")  # not in order


@pytest.mark.parametrize(
    ("value", "forms"),
    [
        ("If Ashburn Forge", ["Ashburn Forge"]),  # a clause's first word before the name
        ("And Thornlow pooled their output", ["Thornlow"]),  # and a clause after it
        ("Blue Whale for Stone Bay", []),  # a name of capitals on both sides of "for"
        ("Museum of Modern Art", []),  # a name's own small words
    ],
)
def test_a_name_with_a_clause_around_it_is_tried_bare(value: str, forms: list[str]) -> None:
    assert forms_of(value, [], RATIO) == forms


def test_two_names_with_a_word_of_the_question_after_them_are_listed() -> None:
    assert listed_names("Tamsin Sailcloth Loft and Brackwater Sail Company combined")
    assert not listed_names("Salt and Pepper shakers")  # one capitalised word a side


def test_two_one_word_names_before_their_tools_kind_in_the_plural_are_listed() -> None:
    value = "Corvallan and Brackenholt peat works"
    assert listed_names(value, ["lookup", "peat", "works"])
    assert not listed_names(value, ["get", "mill"])  # the kind is not the tool's
    assert not listed_names("Salt and Pepper shakers", ["get", "product"])


def test_words_of_a_results_format_are_no_subject_a_question_shares() -> None:
    refused = [(_call("v0", "get_mountain_hut", hut="Standard Violin"), "Error: unknown hut.")]
    tools = [typed_tool("get_mountain_hut", hut="string")]
    tools[0]["function"]["description"] = (
        "Look up a mountain hut; returns its record as a JSON string."
    )
    messages = _turn("How many strings does a standard violin have?", refused)
    assert unfit_failures(messages, tools)
    # a subject word of the description still fits the tool
    assert not unfit_failures(_turn("Which mountain has a violin?", refused), tools)


def test_a_steps_values_one_tool_knew_none_of_are_asked_of_the_tool_that_answered_beside() -> None:
    tools = [
        typed_tool("get_bridge", place="string"),
        typed_tool("get_rope_maker", place="string"),
    ]
    question = (
        "佩林厄姆钟绳坊、斯塔夫克罗斯绳阁、吉尔德摩尔钟绳工坊这三家老店，各自是哪一年创立的？"
    )
    step = [
        (_call("s0", "get_bridge", place="佩林厄姆钟绳坊"), "error: no bridge 佩林厄姆钟绳坊"),
        (
            _call("s1", "get_rope_maker", place="斯塔夫克罗斯绳阁"),
            "Stavecross Rope Loft: founded 1921",
        ),
        (
            _call("s2", "get_bridge", place="吉尔德摩尔钟绳工坊"),
            "error: no bridge 吉尔德摩尔钟绳工坊",
        ),
    ]
    assert rerouted_failures(_turn(question, step), tools) == [
        ("get_rope_maker", {"place": "佩林厄姆钟绳坊"}),
        ("get_rope_maker", {"place": "吉尔德摩尔钟绳工坊"}),
    ]
    # a tool that answered for some value in the turn knows its own: its failures stay
    known = [(_call("s3", "get_bridge", place="鸥翼桥"), "Gullwing Bridge: 1890")]
    assert rerouted_failures(_turn(question, known, step), tools) == []


def test_a_names_first_words_the_user_wrote_are_a_form_of_it() -> None:
    question = "Mooring at Lorrimer vs Tamsin Water Marina: which has the higher fee?"
    assert forms_of("Lorrimer Water Marina", [], 0.8, question=question) == ["Lorrimer"]
    barge = "What does a ticket cost on the Pellucid barge, and on the Dorrow one?"
    assert forms_of("Pellucid Barge", [], 0.8, question=barge) == ["Pellucid"]
    # a name the user wrote whole has no such form
    assert forms_of("Tamsin Water Marina", [], 0.8, question=question) == []


def test_a_refused_value_holding_two_listed_keys_holds_each():
    dairies = (
        "No dairy named 'Oatridge Dairy and of Brackenford Dairy all rode in a single coach, '. "
        "Known: Brackenford Dairy, Hollowmere Dairy, Oatridge Dairy"
    )
    value = "Oatridge Dairy and of Brackenford Dairy all rode in a single coach, "
    asked = (
        "If the staff of Oatridge Dairy and of Brackenford Dairy all rode in a single coach, "
        "how many seats would they fill?"
    )
    named = named_keys(dairies, value, asked)
    assert keys_held(value, named) == ["Oatridge Dairy", "Brackenford Dairy"]
    assert keys_held(value, list(reversed(named))) == ["Oatridge Dairy", "Brackenford Dairy"]
    # one key held is no list of them (holds_key asks it again alone), a key inside another
    # held key is not one of its own
    assert keys_held("包下缠线木偶剧场", ["缠线木偶剧场", "纸月木偶剧场"]) == []
    assert keys_held("Oatridge Dairy farm", ["Oatridge Dairy", "Oatridge"]) == []
    assert keys_held("Oatridge Dairy", ["Oatridge Dairy", "Brackenford Dairy"]) == []
