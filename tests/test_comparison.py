"""The comparison the final-answer step is shown: which looked-up value is larger, computed."""

from __future__ import annotations

import json

import pytest

from toolkit.local.decision.asking import asked_order
from toolkit.local.decision.comparison import compared_entries, comparison
from toolkit.local.decision.decoding import without_label
from toolkit.local.decision.prompt import answer_messages, listed_values
from toolkit.local.decision.records import labelled_numbers
from toolkit.local.format.events import ContentDelta


def _looked_up(question: str, tool: str, param: str, *results: tuple[str, str]) -> list[dict]:
    calls = [
        {
            "id": f"c{i}",
            "type": "function",
            "function": {"name": tool, "arguments": json.dumps({param: v}, ensure_ascii=False)},
        }
        for i, (v, _) in enumerate(results)
    ]
    return [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": calls},
        *(
            {"role": "tool", "tool_call_id": f"c{i}", "content": r}
            for i, (_, r) in enumerate(results)
        ),
    ]


@pytest.mark.parametrize(
    ("question", "order"),
    [
        ("Which is colder right now, Chengdu or Lhasa?", ("colder", False, False)),
        ("Which is higher, Mount Fuji or Mont Blanc?", ("higher", True, False)),
        ("Which city is the coldest: Oslo, Rome or Cairo?", ("coldest", False, True)),
        ("长江和黄河哪条更长？", ("更长", True, False)),
        ("上海和杭州哪个城市更暖和？", ("更暖和", True, False)),
        ("哪个月卖得少，三月还是四月？", ("更少", False, False)),
        ("哪种水果最便宜？", ("最便宜", False, True)),
        ("这三座桥哪座建得最早？", ("最早", False, True)),
        ("Which of the two ferries leaves later?", ("later", True, False)),
        ("黄山比泰山高多少米？", ("更高", True, False)),  # 比 with no 更: by how much
        ("芬尼克船闸的提升高度比凯瑟尔船闸高出多少米？", ("更高", True, False)),
        ("A厂比B厂少几个工人？", ("更少", False, False)),
        ("黄山有多高？", None),
        ("Which of the three guilds has been around the longest?", ("oldest", True, True)),
        ("Has Ely Mill or Ash Mill existed longer?", ("older", True, False)),
        ("这两家伞厂哪家每周做的伞多？", ("更多", True, False)),  # the adjective alone
        ("哪家工厂有多少工人？", None),  # "how many" is no comparison
        ("What is the weather in Beijing?", None),
    ],
)
def test_the_comparison_a_question_asks_for(question, order):
    assert asked_order(question) == order


def test_two_looked_up_numbers_are_compared_in_the_question_s_terms():
    colder = _looked_up(
        "Which is colder right now, Chengdu or Lhasa?",
        "get_weather",
        "city",
        ("Chengdu", "Chengdu: 14 °C, cloudy"),
        ("Lhasa", "Lhasa: 3 °C, sunny"),
    )
    assert comparison(colder) == "Comparison: Lhasa (3) is colder than Chengdu (14)."
    longer = _looked_up(
        "长江和黄河哪条更长？", "get_length", "river", ("黄河", "5464"), ("长江", "6300")
    )
    assert comparison(longer) == "比较：长江（6300）比黄河（5464）更长。"
    # a sign counts: -3 °C is the coldest
    three = _looked_up(
        "Which city is the coldest: Oslo, Rome or Cairo?",
        "get_weather",
        "city",
        ("Rome", "Rome: 12 °C"),
        ("Oslo", "Oslo: 零下3 °C"),
        ("Cairo", "Cairo: 24 °C"),
    )
    assert comparison(three) == (
        "Comparison: Oslo (-3) is the coldest, ahead of Rome (12) and Cairo (24)."
    )


def test_the_compared_entries_are_in_the_order_asked_for():
    fewer = _looked_up(
        "Which ropewalk has fewer spinners, and by how many?",
        "get_ropewalk",
        "name",
        ("Penmoor Ropewalk", "Penmoor Ropewalk: 14 spinners"),
        ("Corran Ropewalk", "Corran Ropewalk: 9 spinners"),
    )
    assert compared_entries(fewer) == [
        (9.0, "Corran Ropewalk", "9"),
        (14.0, "Penmoor Ropewalk", "14"),
    ]
    tie = _looked_up(
        "Which has more?", "get_ropewalk", "name", ("A", "A: 9 spinners"), ("B", "B: 9 spinners")
    )
    assert compared_entries(tie) is None


def test_nothing_is_compared_unless_one_tool_s_numbers_answer_a_comparison():
    question = "Which is higher, Mount Fuji or Mont Blanc?"
    tie = _looked_up(
        question, "get_height", "mountain", ("Mount Fuji", "3776"), ("Mont Blanc", "3776")
    )
    assert comparison(tie) is None
    wordy = _looked_up(
        question,
        "get_height",
        "mountain",
        ("Mount Fuji", "3776 m, 3 peaks"),
        ("Mont Blanc", "4806"),
    )
    assert comparison(wordy) is None  # a result that states two numbers
    failed = _looked_up(
        question, "get_height", "mountain", ("Mount Fuji", "3776"), ("Mont Blanc", "Error: unknown")
    )
    assert comparison(failed) is None  # one value left: nothing to compare it with
    plain = _looked_up(
        "How old are Bella and Max?", "get_pet_age", "pet", ("Bella", "7"), ("Max", "3")
    )
    assert comparison(plain) is None  # no comparison asked
    combined = _looked_up(
        question, "get_height", "mountain", ("Mount Fuji", "3776"), ("Mont Blanc", "4806")
    )
    combined.append(
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "d",
                    "type": "function",
                    "function": {"name": "difference", "arguments": '{"a": 4806, "b": 3776}'},
                }
            ],
        }
    )
    combined.append({"role": "tool", "tool_call_id": "d", "content": "1030"})
    assert comparison(combined) is None  # a later step combined them: its result answers
    # unless that step is the difference the question asks for: the values before it compared
    step = answer_messages(combined, result="1030", difference=True)[-1]["content"]
    assert step.endswith("Comparison: Mont Blanc (4806) is higher than Mount Fuji (3776), by 1030.")
    assert "by 1030" not in answer_messages(combined, result="1030")[-1]["content"]


def test_the_final_answer_step_ends_with_the_comparison():
    messages = _looked_up(
        "Did the shop sell more in January or in February?",
        "get_monthly_sales",
        "month",
        ("January", "120"),
        ("February", "95"),
    )
    body = answer_messages(messages)[-1]["content"]
    assert body.endswith("\nComparison: January (120) is more than February (95).")
    assert 'get_monthly_sales(month="February") = 95' in body
    assert "Comparison" not in answer_messages(messages, compare=False)[-1]["content"]


def test_records_of_several_numbers_are_compared_by_the_quantity_the_word_is_about():
    record = '{"name": "Old Stone Bridge", "length_m": 210, "opened": 1887}'
    assert labelled_numbers(record) == [({"length", "m"}, "210"), ({"opened"}, "1887")]
    text = "Harbour Ferry: 3-5 stops, about 40 minutes, fare 12 yuan"
    assert labelled_numbers(text)[-1] == ({"fare", "yuan"}, "12")
    grouped = "output 2,400 litres per day, staff 31"
    assert labelled_numbers(grouped) == [({"output", "litres", "per", "day"}, "2400"),
                                         ({"staff"}, "31")]  # fmt: skip
    assert labelled_numbers('{"output": 2400, "staff": 31}')[0] == ({"output"}, "2400")
    earliest = _looked_up(
        "这两座桥哪座建得最早？",
        "get_bridge",
        "bridge",
        ("老石桥", record),
        ("新港桥", '{"name": "New Harbour Bridge", "length_m": 480, "opened": 1995}'),
    )
    assert comparison(earliest) == "比较：老石桥（1887）最早；其余：新港桥（1995）。"
    cheaper = _looked_up(
        "Which ferry is cheaper, the Harbour Ferry or the Island Ferry?",
        "get_ferry",
        "ferry",
        ("Harbour Ferry", text),
        ("Island Ferry", "Island Ferry: 2 stops, about 25 minutes, fare 18 yuan"),
    )
    assert comparison(cheaper) == (
        "Comparison: Harbour Ferry (12) is cheaper than Island Ferry (18)."
    )
    # a word of no one quantity compares the label the question names, or nothing
    more = _looked_up(
        "Which bridge has more lanes?",
        "get_bridge",
        "bridge",
        ("A", '{"lanes": 4, "opened": 1887}'),
        ("B", '{"lanes": 6, "opened": 1995}'),
    )
    assert comparison(more) == "Comparison: B (6) is more than A (4)."
    vague = _looked_up(
        "Which bridge is better?", "get_bridge", "bridge", ("A", record), ("B", record)
    )
    assert comparison(vague) is None


def test_a_label_the_question_names_in_another_language_is_read_in_its_english_reading():
    messages = _looked_up(
        "东桥、西桥、南桥这三座桥，哪座的桥墩最少？",
        "get_bridge",
        "name",
        ("东桥", "East Bridge (东桥): length 420 m, 9 piers, 12,400 crossings per day"),
        ("西桥", "West Bridge (西桥): length 310 m, 6 piers, 8,100 crossings per day"),
        ("南桥", "South Bridge (南桥): length 780 m, 14 piers, 3,900 crossings per day"),
    )
    # the Chinese question names no English label: nothing is compared
    assert comparison(messages) is None
    reading = "Which of the three bridges, East, West and South, has the fewest piers?"
    assert comparison(messages, reading) == "比较：西桥（6）最少；其余：东桥（9）、南桥（14）。"
    # the words of the tool's name ("bridge") name no label
    assert comparison(messages, "Which bridge is the least?") is None


def test_a_label_the_model_picks_for_a_question_in_another_language_comes_before_the_reading():
    messages = _looked_up(
        "东桥和西桥，哪座的桥墩更少？",
        "get_bridge",
        "name",
        ("东桥", "East Bridge (东桥): length 420 m, 9 piers, 12,400 crossings per day"),
        ("西桥", "West Bridge (西桥): length 310 m, 6 piers, 8,100 crossings per day"),
    )
    piers = {"East": "9", "West": "6"}

    def picked(record: str) -> str | None:
        return piers.get(record.split()[0])

    assert comparison(messages, None, picked) == "比较：西桥（6）比东桥（9）更少。"
    # the reading names another label ("length"): the pick comes first
    reading = "Which bridge is shorter in length?"
    assert comparison(messages, reading, picked) == "比较：西桥（6）比东桥（9）更少。"
    assert comparison(messages, reading) == "比较：西桥（310）比东桥（420）更少。"


def test_the_final_answer_step_lists_the_value_asked_of_each_record_when_known():
    messages = _looked_up(
        "东桥和西桥各有多少个桥墩？",
        "get_bridge",
        "name",
        ("东桥", "East Bridge: length 420 m, 9 piers"),
        ("西桥", "West Bridge: length 310 m, 6 piers"),
    )
    step = answer_messages(messages, values=[("东桥", "9"), ("西桥", "6")])
    assert step is not None
    assert step[-1]["content"].endswith("\n各自的数值：东桥（9）、西桥（6）。")
    plain = answer_messages(messages)
    assert plain is not None and "各自的数值" not in plain[-1]["content"]
    assert listed_values([("East", "9"), ("West", "6")], "How many piers each?") == (
        "East (9), West (6)."
    )


def test_the_faster_of_two_times_taken_is_the_shorter():
    minutes = _looked_up(
        "Which fire station responds faster, Alder or Birch?",
        "get_fire_station",
        "name",
        ("Alder", "Alder Station: average response 14 minutes"),
        ("Birch", "Birch Station: average response 9 minutes"),
    )
    assert comparison(minutes) == "Comparison: Birch (9) is faster than Alder (14)."
    # beside another number, the time taken is the one compared
    engines = _looked_up(
        "Which fire station responds faster, Alder or Birch?",
        "get_fire_station",
        "name",
        ("Alder", "Alder Station: average response 14 minutes, 4 engines"),
        ("Birch", "Birch Station: average response 9 minutes, 6 engines"),
    )
    assert comparison(engines) == "Comparison: Birch (9) is faster than Alder (14)."
    chinese = _looked_up(
        "阿德站和白桦站哪个出警更快？",
        "get_fire_station",
        "name",
        ("阿德站", "阿德站：平均出警时间14分钟"),
        ("白桦站", "白桦站：平均出警时间9分钟"),
    )
    assert comparison(chinese) == "比较：白桦站（9）比阿德站（14）更快。"
    # a speed is faster the larger it is
    speeds = _looked_up(
        "Which boat is quicker, the Tern or the Gull?",
        "get_boat",
        "name",
        ("Tern", "Tern: top speed 31 km/h"),
        ("Gull", "Gull: top speed 24 km/h"),
    )
    assert comparison(speeds) == "Comparison: Tern (31) is quicker than Gull (24)."


def test_an_answer_that_copies_the_comparisons_label_is_given_without_it():
    events = [ContentDelta("Compar"), ContentDelta("ison: Alder (9) is faster"), ContentDelta(".")]
    kept = without_label(events)
    assert "".join(e.text for e in kept) == "Alder (9) is faster."
    chinese = without_label([ContentDelta("比较：长江更长。")])
    assert "".join(e.text for e in chinese) == "长江更长。"
    untouched = [ContentDelta("The comparison: x")]
    assert without_label(untouched) == untouched


def test_the_older_of_two_things_founded_is_the_earlier_year():
    founded = _looked_up(
        "Which is older, Alder Forge or Birch Forge?",
        "get_forge",
        "name",
        ("Alder Forge", "Alder Forge: founded 1896, 12 smiths, 4 anvils"),
        ("Birch Forge", "Birch Forge: founded 1838, 9 smiths, 6 anvils"),
    )
    assert comparison(founded) == "Comparison: Birch Forge (1838) is older than Alder Forge (1896)."
    # an age is compared as it is: the larger is older
    aged = _looked_up(
        "Which is older, Alder Forge or Birch Forge?",
        "get_forge",
        "name",
        ("Alder Forge", "Alder Forge: age 128 years, 12 smiths"),
        ("Birch Forge", "Birch Forge: age 186 years, 9 smiths"),
    )
    assert comparison(aged) == "Comparison: Birch Forge (186) is older than Alder Forge (128)."


def _lookups_of(question: str, *steps: tuple[str, str, str]) -> list[dict]:
    """One step of lookups by name, each ``(tool, name, result)``, and their results."""
    calls = [
        {
            "id": f"c{i}",
            "type": "function",
            "function": {"name": t, "arguments": json.dumps({"name": n})},
        }
        for i, (t, n, _) in enumerate(steps)
    ]
    return [
        {"role": "user", "content": question},
        {"role": "assistant", "content": "", "tool_calls": calls},
        *(
            {"role": "tool", "tool_call_id": f"c{i}", "content": r}
            for i, (_, _, r) in enumerate(steps)
        ),
    ]


def test_records_of_two_tools_each_looked_up_by_its_name_are_compared():
    messages = _lookups_of(
        "Which is older, Corran Mill or Dunlow Forge?",
        ("get_mill", "Corran Mill", "Corran Mill: founded 1896, 5 wheels"),
        ("get_forge", "Dunlow Forge", "Dunlow Forge: founded 1838, 9 smiths"),
    )
    assert (
        comparison(messages) == "Comparison: Dunlow Forge (1838) is older than Corran Mill (1896)."
    )
    # a step of two numbers (a difference) is no record to compare
    messages[1]["tool_calls"][1]["function"] = {
        "name": "subtract",
        "arguments": '{"a": 1896, "b": 1838}',
    }
    messages[3]["content"] = "58"
    assert comparison(messages) is None


def test_a_rate_over_a_year_is_no_date_to_compare_ages_by():
    # "clocks per year" is a rate: the year founded is the guild's age
    record = "Name: {}\nfounded: {}\nmembers: {}\nclocks per year: {}"
    guilds = (
        ("Oriel Guild", record.format("Oriel Guild", 1744, 19, 150)),
        ("Brassmoor Guild", record.format("Brassmoor Guild", 1687, 42, 310)),
    )
    around = "Of Brassmoor Guild and Oriel Guild, which has been around the longest?"
    assert comparison(_looked_up(around, "lookup_guild", "name", *guilds)) == (
        "Comparison: Brassmoor Guild (1687) is the oldest, ahead of Oriel Guild (1744)."
    )
    founded = "Which guild was founded earliest, Oriel Guild or Brassmoor Guild?"
    earliest = compared_entries(_looked_up(founded, "lookup_guild", "name", *guilds)) or []
    assert [name for _, name, _ in earliest] == ["Brassmoor Guild", "Oriel Guild"]
