"""Which part of a question of several requests a first call belongs to."""

from __future__ import annotations

from toolkit.local.decision.parts import (
    own_values,
    part_to_write,
    question_parts,
    restates,
    states_value,
    texts_of_its_own,
    unasked_parts,
)

_GAMES = (
    "In the game 'Animal Crossing' during the 'Summer' season, can you find out what types of "
    "'fish' are collectable? After that, can you tell me the highest score achieved by any "
    "player in the game 'Fortnite' on 'Playstation' platform in the 'Asia' region?"
)
_COLLECTABLES = {
    "get_collectables_in_season": {"properties": {"game_name": {}, "season": {}, "item_type": {}}},
    "game_score_highest": {"properties": {"game": {}, "platform": {}, "region": {}}},
}
_RANKINGS = (
    "Tell me the ranking of the New York Yankees in the Major League Baseball for the 2019 "
    "season, then check the ranking of the Los Angeles Lakers in the National Basketball "
    "Association for the 2020 season."
)
_RANKING = {
    "sports_ranking": {"properties": {"team": {}, "league": {}, "season": {}}},
    "air_quality": {"properties": {"location": {}, "date": {}}},
}


def test_a_question_is_read_in_parts_one_per_request() -> None:
    assert len(question_parts(_GAMES)) == 2
    assert question_parts(_RANKINGS)[1].startswith("then check the ranking")
    assert question_parts("What is the weather in Paris?") == ["What is the weather in Paris?"]


def test_a_call_of_another_parts_values_is_written_from_its_own_part() -> None:
    # the high score's game and platform, asked of the collectables' tool
    wrong = {"game_name": "Fortnite", "season": "Playstation"}
    part = part_to_write(_GAMES, "get_collectables_in_season", wrong, _COLLECTABLES)
    assert part is not None and "Animal Crossing" in part
    right = {"game_name": "Animal Crossing", "season": "Summer", "item_type": "fish"}
    assert part_to_write(_GAMES, "get_collectables_in_season", right, _COLLECTABLES) is None


def test_a_call_of_two_parts_values_is_written_from_the_first_that_fits() -> None:
    mixed = {"team": "Los Angeles Lakers", "league": "Major League Baseball", "season": 2020}
    part = part_to_write(_RANKINGS, "sports_ranking", mixed, _RANKING)
    assert part is not None and "Yankees" in part and "Lakers" not in part
    lakers = {"team": "Los Angeles Lakers", "league": "National Basketball Association"}
    assert part_to_write(_RANKINGS, "sports_ranking", {**lakers, "season": 2020}, _RANKING) is None


def test_a_request_that_goes_on_in_a_second_sentence_is_one_part() -> None:
    factors = (
        "What is the prime factorization of the number 60? Return them in the form of dictionary"
    )
    schema = {"prime_factorize": {"properties": {"number": {}, "return_type": {}}}}
    call = {"number": 60, "return_type": "dictionary"}
    assert part_to_write(factors, "prime_factorize", call, schema) is None
    # an abbreviation's full stop ends no sentence
    houses = "Predict the price of a house of 3000 sq ft. in location New York and 4000 sq ft."
    assert len(question_parts(houses)) == 1


def test_a_question_of_one_request_is_left_alone() -> None:
    question = "I'm at Bengaluru. Tell me the weather in Chennai."
    schema = {"get_weather": {"properties": {"city": {}}}}
    assert part_to_write(question, "get_weather", {"city": "Chennai"}, schema) is None
    assert states_value("the 2019 season", 2019) and not states_value("the 2019 season", 2020)


_ERRANDS = (
    "Could you help me with a few errands? First, change 120 Swiss Francs to Danish Krone. "
    "Then find the opening hours of the 'Harbour Library' in Aberdeen. "
    "Finally, change 75 Norwegian Krone to Polish Zloty."
)


def test_a_part_with_values_of_its_own_and_no_call_is_unasked() -> None:
    made = [
        {"amount": 120, "source": "Swiss Francs", "target": "Danish Krone"},
        {"library": "Harbour Library", "city": "Aberdeen"},
    ]
    assert unasked_parts(_ERRANDS, made) == [question_parts(_ERRANDS)[-1]]
    # once a call takes one of its values, the last part is asked too
    asked = [*made, {"amount": 75, "source": "Norwegian Krone", "target": "Polish Zloty"}]
    assert unasked_parts(_ERRANDS, asked) == []
    # the opening courtesy states nothing of its own: no call is asked of it
    assert not own_values(question_parts(_ERRANDS)[0])


def test_values_of_its_own_are_numbers_quotes_and_names_past_the_first_word() -> None:
    assert own_values("And work out the interest after 5 years.") == [5.0]
    assert own_values("then play something by 'the lumineers'.") == ["the lumineers"]
    assert own_values("Also, what did the Congress of Vienna decide?") == ["Congress", "Vienna"]
    assert own_values("Finally, change 75 Norwegian Krone to Polish Zloty.") == [
        75.0,
        "Norwegian Krone",
        "Polish Zloty",
    ]
    assert own_values("Then tell me how long I'd wait there.") == []
    assert own_values("I'm not sure where to start.") == []


def test_a_part_is_asked_once_a_call_took_all_its_own_values() -> None:
    question = "Book the 'Harbour Library' reading room. You want it for 3 hours."
    made = [{"room": "Harbour Library", "hours": 3}]
    assert unasked_parts(question, made) == []
    assert unasked_parts(question, [{"room": "Harbour Library"}]) == [question_parts(question)[1]]


def test_a_call_of_a_part_writes_only_its_own_texts_or_choices() -> None:
    question = "Find the hut. You want the slope and its location in 'degree'."
    part = question_parts(question)[1]
    schema = {"properties": {"about": {"type": "array", "items": {"enum": ["Location", "Slope"]}}}}
    assert texts_of_its_own(part, {"unit": "degree", "points": [1, 2]}, question, None)
    assert texts_of_its_own(part, {"unit": "radian"}, question, None)  # the question never says it
    assert texts_of_its_own(part, {"about": ["Location"]}, question, schema)  # a schema's choice
    assert not texts_of_its_own(part, {"about": ["Location"]}, question, None)
    assert not texts_of_its_own(part, {"location": "You want the slope"}, question, None)


def test_values_inside_lists_and_objects_count_as_taken() -> None:
    question = "Plot the points [3, 9] in red. Then label the chart 'Tides'."
    made = [{"points": [3, 9], "style": {"colour": "red"}}]
    assert unasked_parts(question, made) == ["Then label the chart 'Tides'."]


def test_a_question_of_one_request_leaves_no_part_unasked() -> None:
    assert unasked_parts("Convert 120 Swiss Francs to Danish Krone.", []) == []


def test_an_abbreviations_dot_ends_no_part() -> None:
    question = "I put $400 into Brindle Ltd. (BRD) at 3%. Lastly, I put $900 into Orme Co. too."
    assert question_parts(question) == [
        "I put $400 into Brindle Ltd. (BRD) at 3%.",
        "Lastly, I put $900 into Orme Co. too.",
    ]


def test_a_call_with_an_earlier_calls_very_numbers_restates_it() -> None:
    earlier = [{"stock": "BRD", "amount": 400, "rate": 0.03}]
    assert restates({"stock": "Brindle Ltd", "amount": 400, "rate": 0.03}, earlier)
    assert not restates({"stock": "ORM", "amount": 900, "rate": 0.03}, earlier)
    assert not restates({"stock": "Brindle Ltd"}, earlier)  # no numbers to restate
