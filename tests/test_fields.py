"""The field of a record a question asks for: the labels it is picked among, and the pick."""

from __future__ import annotations

import math

from toolkit.local.decision.fields import asking_sentence, picked_label
from toolkit.local.decision.records import record_fields


def test_a_records_fields_are_its_labels_as_written_without_its_name():
    brigade = "Kestrel Vale Fire Brigade — 4 engines; founded in 1902; crew: 28; response 7 min"
    assert record_fields(brigade) == [
        ("engines", "4"),
        ("founded in", "1902"),
        ("crew", "28"),
        ("response min", "7"),
    ]
    reservoir = '{"name": "Hollin Reservoir", "capacity_megalitres": 4800, "dam_height_m": 37}'
    assert record_fields(reservoir) == [("capacity megalitres", "4800"), ("dam height m", "37")]
    cellar = "Muddlecombe Cellar: dug in 1883, 2,350 wheels in store, ripening temperature 11 °C"
    assert record_fields(cellar) == [
        ("dug in", "1883"),
        ("wheels in store", "2350"),
        ("ripening temperature °C", "11"),
    ]
    assert record_fields("6") == []  # a bare number has no label


def test_the_pick_is_the_label_that_gains_most_over_a_question_that_asks_nothing():
    # the small model favours the first label whatever the question ("engines")
    scores = {"engines": math.log(0.6), "crew": math.log(0.3), "founded in": math.log(0.1)}
    baseline = {"engines": math.log(0.8), "crew": math.log(0.05), "founded in": math.log(0.15)}
    assert picked_label(scores, baseline, 0.75) == "crew"  # gains: 0.75, 6, 0.67
    # the uncalibrated choice would be "engines"
    assert max(scores, key=scores.__getitem__) == "engines"
    # no label stands out: no pick
    even = {"engines": math.log(0.5), "crew": math.log(0.5)}
    assert picked_label(even, {"engines": 0.0, "crew": 0.0}, 0.75) is None
    assert picked_label(even, {"engines": 0.0, "crew": 0.0}, 0.5) in {"engines", "crew"}
    # one label is no choice
    assert picked_label({"crew": 0.0}, {"crew": -1.0}, 0.5) is None


def test_the_sentence_that_asks_is_read_not_the_way_there():
    chain = "格林伍德锯木厂的木材由一艘驳船运走。那艘驳船有多少名船员？"
    assert asking_sentence(chain) == "那艘驳船有多少名船员？"
    told = "Pellow Mill sends its wool out to be dyed. How many vats does that dye works have?"
    assert asking_sentence(told) == "How many vats does that dye works have?"
    assert asking_sentence("What is 3.5 times 2? Thanks") == "What is 3.5 times 2?"
    assert asking_sentence("Tell me the seats of Hallam Rink.") == (
        "Tell me the seats of Hallam Rink."
    )


def test_the_names_looked_up_are_no_field_words():
    from toolkit.local.decision.fields import without_names
    from toolkit.local.decision.kinds import glossed_terms
    from toolkit.local.decision.records import glossed_number

    question = "吉拉姆谷铁道模型协会是哪一年成立的？"
    record = (
        '{"club": {"name": "Gillam Valley Railway Society", "founded": 1988}, '
        '"stats": {"members": 33, "track_length_m": 268, "locomotives": 94}}'
    )
    # the society's name says 铁道 "railway track": the track length, not its founding year
    assert glossed_number(record, glossed_terms(question)) == "268"
    blank = without_names(question, ["吉拉姆谷铁道模型协会"])
    assert len(blank) == len(question) and "铁道" not in blank
    assert glossed_number(record, glossed_terms(blank)) is None
    assert without_names("Ask A about A1", ["A", ""]) == "Ask A about A1"  # one letter: kept
