"""The items a question lists beside a value a call took, and the calls its lists ask for
(decision.coordination)."""

from __future__ import annotations

import pytest

from toolkit.local.decision.coordination import coordinated, item_fits, listed_calls

RESISTANCE = "the resistance of a wire 5m long with resistivity of copper and aluminum"
SEASONS = "Find the winning percentage of Lakers and Bulls in NBA seasons 2018 and 2020."
CONCERTS = (
    "Can you find me any upcoming rock and jazz concerts for the next month in "
    "San Francisco, California and New York, New York?"
)


@pytest.mark.parametrize(
    ("text", "value", "items"),
    [
        (RESISTANCE, "copper", ["aluminum"]),
        (RESISTANCE, "aluminum", ["copper"]),
        ("a loan term of 15, 20 and 30 years", 15, [20, 30]),
        ("a loan term of 15, 20 and 30 years", 20, [15, 30]),
        ("for 1,5 and 10 years", 10, [1, 5]),  # "1,5" is two numbers, "1,500" one
        ("the Pythagoras of 3 and 4, 5 and 12", 4, [3]),  # "3 and 4" ends its list
        ("a rate of 1,500 and 20 years", 20, [1500]),
        (SEASONS, "Lakers", ["Bulls"]),
        (SEASONS, 2020, [2018]),
        ("seasons 2017, 2018 and 2019", 2017, [2018, 2019]),
        (CONCERTS, "rock", ["jazz"]),  # the noun both items share is no part of either
        (CONCERTS, "San Francisco, California", ["New York, New York"]),
        (
            "What's the weather in Beijing, Shanghai and Chengdu?",
            "Chengdu",
            ["Beijing", "Shanghai"],
        ),
        ("计算一下北京和西安的气温的总和", "北京", ["西安"]),
        ("苹果、香蕉和西瓜每公斤各多少钱？", "苹果", ["香蕉", "西瓜"]),
        ("cases of type 'Civil' and 'Criminal'", "Civil", ["Criminal"]),
        (
            "the distance between New York City and Washington D.C.",
            "New York City",
            ["Washington D.C."],
        ),
        ("the elevation of K2 and Mount Everest", "K2", ["Mount Everest"]),
        ("the price of a Yamaha P125 in Berlin and Madrid's music stores", "Berlin", ["Madrid"]),
        ("play Taylor Swift and Maroon 5 for 20 minutes and 15 minutes", 20, [15]),
        # the two terms of a comparison, each looked up as a list's items are
        (
            "How many more looms does Pellow Mill run than Scarth Mill?",
            "Pellow Mill",
            ["Scarth Mill"],
        ),
        (
            "How many more looms does Pellow Mill run than Scarth Mill?",
            "Scarth Mill",
            ["Pellow Mill"],
        ),
        ("How much warmer is Lisbon than Oslo?", "Lisbon", ["Oslo"]),
        ("格兰顿采石场比费尔伍德采石场深多少米？", "格兰顿采石场", ["费尔伍德采石场"]),
        ("格兰顿采石场的工人比费尔伍德采石场多几名？", "费尔伍德采石场", ["格兰顿采石场"]),
    ],
)
def test_the_items_a_list_holds(text, value, items):
    assert coordinated(text, value) == items


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("What's the current temperature and humidity in Seattle, Washington?", "Seattle"),
        (
            "I need a ride from 2020 Addison Street, Berkeley, and I can wait 600 seconds.",
            "Berkeley",
        ),
        ("I want to go to McDonald's and buy a pizza.", "McDonald's"),
        (
            "Find overview about the Battle of Waterloo and the signing of the Treaty.",
            "Battle of Waterloo",
        ),
        ("Invest $2000 in Google and withdraw $1000 from Apple.", "Google"),
        ("the population growth in deer and their impact on woodland", "deer"),
        (
            "objects in image my_backyard_image_url and analyze the sentiment",
            "my_backyard_image_url",
        ),
        ("stocks listed on NASDAQ and Microsoft Corporation listed on NYSE", "NASDAQ"),
        ("cc to manager@example.com and blind carbon copy to hr", "manager@example.com"),
        ("lawsuits with numbers '67813', '71249' for type 'Civil'", "67813"),  # no conjunction
        ("a triangle with sides 6cm and 10cm", "cm"),  # not written as a word of its own
        ("the weather in Paris", "Paris"),
        ("the weather in Paris", "London"),
        ("Is 17 larger than 12?", 17),  # numbers compared are no things to look up
        ("Is the weather in Paris better than in London?", "Paris"),
        ("Is Paris warmer than the average?", "Paris"),
        ("格兰顿采石场比去年深多少米？", "格兰顿采石场"),  # no thing of the value's kind
    ],
)
def test_what_is_no_list(text, value):
    assert coordinated(text, value) == []


def _schemas(**properties: str) -> dict:
    return {"t": {"properties": {name: {"type": kind} for name, kind in properties.items()}}}


def test_each_item_of_a_list_is_a_call():
    schemas = _schemas(material="string", length=5)
    schemas["t"]["properties"]["length"] = {"type": "number"}
    made = [("t", {"length": 5, "material": "copper"})]
    assert listed_calls(RESISTANCE, made, schemas) == [("t", {"length": 5, "material": "aluminum"})]


def test_two_lists_that_cross_ask_for_every_pair():
    schemas = _schemas(team="string", season="integer")
    made = [("t", {"team": "Lakers", "season": 2018})]
    assert listed_calls(SEASONS, made, schemas) == [
        ("t", {"team": "Lakers", "season": 2020}),
        ("t", {"team": "Bulls", "season": 2018}),
        ("t", {"team": "Bulls", "season": 2020}),
    ]
    # a call made already, with the same values in the listed places, asks for its pair
    also = [*made, ("t", {"team": "Bulls", "season": 2020})]
    assert ("t", {"team": "Bulls", "season": 2020}) not in listed_calls(
        SEASONS, made, schemas, also
    )


def test_lists_paired_respectively_ask_for_the_items_in_the_same_places():
    question = (
        "Play songs from the artists Taylor Swift and Maroon 5, with a play time of "
        "20 minutes and 15 minutes respectively, on Spotify."
    )
    schemas = _schemas(artist="string", duration="integer")
    made = [("t", {"artist": "Taylor Swift", "duration": 20})]
    assert listed_calls(question, made, schemas) == [("t", {"artist": "Maroon 5", "duration": 15})]
    # a list the question pairs with no other asks for nothing
    lone = "Play Taylor Swift and Maroon 5 for 20 and 15 minutes respectively."
    assert listed_calls(lone, [("t", {"artist": "Taylor Swift", "duration": 7})], schemas) == []
    # a call of one value has nothing to pair: "each of them" (分别, 各自, respectively)
    by_name = {"get_rope_works": {"properties": {"name": {"type": "string"}}, "required": ["name"]}}
    question = "彭罗和卡文这两家绳索厂，各自有多少名工人？"
    made = [("get_rope_works", {"name": "彭罗绳索厂"})]
    assert listed_calls(question, made, by_name) == [("get_rope_works", {"name": "卡文绳索厂"})]
    question = "How many spinners do Penmoor and Corran have respectively?"
    made = [("get_rope_works", {"name": "Penmoor"})]
    assert listed_calls(question, made, by_name) == [("get_rope_works", {"name": "Corran"})]


@pytest.mark.parametrize(
    ("question", "arguments", "kinds"),
    [
        ("the GCD of 40 and 50", {"a": 40, "b": 50}, {"a": "integer", "b": "integer"}),
        (  # another value of the call holds an item of the list: the call's own list
            "the hypotenuse of 3 and 4, 5 and 12",
            {"a": 3, "b": 4},
            {"a": "integer", "b": "integer"},
        ),
        (  # an item that is a word of the parameters' names is no value
            "a base of 10 units and height of 5",
            {"base": 10, "height": 5, "unit": "units"},
            {"base": "integer", "height": "integer", "unit": "string"},
        ),
        (  # a word where a number belongs does not fit
            "a loan term of 15 and thirty years",
            {"term": 15},
            {"term": "integer"},
        ),
    ],
)
def test_no_call_for_a_list_the_call_takes_whole_or_that_does_not_fit(question, arguments, kinds):
    assert listed_calls(question, [("t", arguments)], _schemas(**kinds)) == []


def test_a_list_another_call_holds_is_that_calls_own():
    question = "Find all prime numbers between 50 and 150. Then get the fibonacci series upto 150."
    schemas = {
        "primes": {"properties": {"start": {"type": "integer"}, "end": {"type": "integer"}}},
        "fibonacci": {"properties": {"count": {"type": "integer"}}},
    }
    made = [("primes", {"start": 50, "end": 150}), ("fibonacci", {"count": 150})]
    assert listed_calls(question, made[1:], schemas, made) == []


def test_a_list_another_tool_asks_for_item_by_item_is_this_tools_too():
    question = "What was the life expectancy in the USA in 1900 and 1950, and the GDP?"
    schemas = {
        "life": {"properties": {"year": {"type": "integer"}}},
        "gdp": {"properties": {"year": {"type": "integer"}}},
    }
    made = [("life", {"year": 1900}), ("gdp", {"year": 1900}), ("gdp", {"year": 1950})]
    assert listed_calls(question, made[:1], schemas, made) == [("life", {"year": 1950})]


def test_a_call_made_in_another_form_of_the_item_asks_for_it():
    question = "a music shop in San Francisco, California, and Chicago, Illinois"
    schemas = _schemas(location="string")
    made = [("t", {"location": "Chicago, Illinois"}), ("t", {"location": "San Francisco, CA"})]
    assert listed_calls(question, made[:1], schemas, made) == []
    assert listed_calls(question, made[:1], schemas) == [
        ("t", {"location": "San Francisco, California"})
    ]


def test_an_item_fits_its_parameter():
    assert item_fits("aluminum", {"type": "string"}) == "aluminum"
    assert item_fits(20, {"type": "integer"}) == 20
    assert item_fits(2.5, {"type": "integer"}) is None
    assert item_fits("Jazz", {"type": "string", "enum": ["rock", "jazz"]}) == "jazz"
    assert item_fits("blues", {"type": "string", "enum": ["rock", "jazz"]}) is None
    assert item_fits("twenty", {"type": "number"}) is None
    assert item_fits(3, {"type": "string"}) is None


def test_a_list_written_before_the_words_of_the_tools_kind_asks_for_each_item():
    # "Penmoor, Ashby and Corran ropewalks": the call's value ends with the kind's words
    schemas = {"get_ropewalk": {"properties": {"name": {"type": "string"}}}}
    question = "When were the Penmoor, Ashby and Corran ropewalks founded?"
    chosen = [("get_ropewalk", {"name": "Penmoor Ropewalk"})]
    assert listed_calls(question, chosen, schemas) == [
        ("get_ropewalk", {"name": "Ashby Ropewalk"}),
        ("get_ropewalk", {"name": "Corran Ropewalk"}),
    ]
    # a comparison's other term, written without the kind's words
    question = "How many more ropes does Penmoor make than Ashby?"
    assert listed_calls(question, chosen, schemas) == [("get_ropewalk", {"name": "Ashby Ropewalk"})]
    # words the tool's name does not say are no kind's ("Boston City" of "New York City")
    weather = {"get_weather": {"properties": {"city": {"type": "string"}}}}
    asked = [("get_weather", {"city": "New York City"})]
    assert listed_calls("Weather in New York and Boston?", asked, weather) == []


PERIODS = {
    "precipitation": {
        "properties": {
            "location": {"type": "string"},
            "time_frame": {"type": "string", "enum": ["six_months", "year", "five_years"]},
        },
        "required": ["location", "time_frame"],
    }
}


def test_an_enums_members_listed_in_words_of_their_own_ask_for_a_call_each():
    question = (
        "Rainfall in the Amazon for the last six months, the last year, and the last five years?"
    )
    chosen = [("precipitation", {"location": "Amazon", "time_frame": "six_months"})]
    assert listed_calls(question, chosen, PERIODS) == [
        ("precipitation", {"location": "Amazon", "time_frame": "year"}),
        ("precipitation", {"location": "Amazon", "time_frame": "five_years"}),
    ]
    # "year" inside "five years" is no "year"; each member is itself, not a part of another
    made = [*chosen, ("precipitation", {"location": "Amazon", "time_frame": "year"})]
    assert listed_calls(question, made, PERIODS) == [
        ("precipitation", {"location": "Amazon", "time_frame": "five_years"})
    ]
    assert listed_calls(question, chosen, PERIODS, members=False) == []


def test_members_that_differ_in_case_alone_are_matched_as_written():
    schemas = {
        "genotype_frequency": {
            "properties": {
                "allele_frequency": {"type": "number"},
                "genotype": {"type": "string", "enum": ["AA", "Aa", "aa"]},
            }
        }
    }
    question = (
        "The dominant allele's frequency is 0.7. What are the frequencies of the homozygous "
        "dominant (AA), heterozygous (Aa), and homozygous recessive (aa) genotypes?"
    )
    chosen = [("genotype_frequency", {"allele_frequency": 0.7, "genotype": "AA"})]
    assert listed_calls(question, chosen, schemas) == [
        ("genotype_frequency", {"allele_frequency": 0.7, "genotype": "Aa"}),
        ("genotype_frequency", {"allele_frequency": 0.7, "genotype": "aa"}),
    ]
    assert item_fits("aa", schemas["genotype_frequency"]["properties"]["genotype"]) == "aa"
    assert item_fits("aA", schemas["genotype_frequency"]["properties"]["genotype"]) is None


def test_members_paired_with_other_values_are_no_list():
    schemas = {
        "save_progress": {
            "properties": {
                "stage": {"type": "integer"},
                "mode": {"type": "string", "enum": ["easy", "hard"]},
            }
        }
    }
    # each mode belongs with its stage: a number between them pairs them
    question = "How do I save at stage 7 in easy mode and stage 3 in hard mode?"
    chosen = [("save_progress", {"stage": 7, "mode": "easy"})]
    assert ("save_progress", {"stage": 7, "mode": "hard"}) not in listed_calls(
        question, chosen, schemas
    )
    # nor is a member the question turns away from
    order = {"order": {"properties": {"food": {"type": "string", "enum": ["PIZZA", "BURGER"]}}}}
    question = "I would like to switch my order from pizza to a BURGER."
    assert listed_calls(question, [("order", {"food": "BURGER"})], order) == []


def test_things_of_one_kind_a_chinese_question_counts_are_each_looked_up():
    schemas = {"get_soap_works": {"properties": {"name": {"type": "string"}}, "required": ["name"]}}
    question = "吉尔德、布兰布尔福德和凯斯特利这三家肥皂厂各有多少名员工？"
    chosen = [("get_soap_works", {"name": "吉尔德肥皂厂"})]
    assert listed_calls(question, chosen, schemas) == [
        ("get_soap_works", {"name": "布兰布尔福德肥皂厂"}),
        ("get_soap_works", {"name": "凯斯特利肥皂厂"}),
    ]
    # the name alone, when the lookup took it so
    chosen = [("get_soap_works", {"name": "吉尔德"})]
    assert listed_calls(question, chosen, schemas) == [
        ("get_soap_works", {"name": "布兰布尔福德"}),
        ("get_soap_works", {"name": "凯斯特利"}),
    ]
    # one thing of the kind named: nothing more to look up
    question = "马洛游泳池的肥皂由哪家肥皂厂供应？"
    assert listed_calls(question, [("get_soap_works", {"name": "马洛游泳池"})], schemas) == []
