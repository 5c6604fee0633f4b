"""Which part of a question of several requests a first call belongs to."""

from __future__ import annotations

from toolkit.local.decision.parts import part_to_write, question_parts, states_value

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
