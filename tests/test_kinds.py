"""Which offered lookup a name belongs to, read from the name's own words."""

from __future__ import annotations

import pytest

from toolkit.local.decision.kinds import (
    capitalised_from_lower_case,
    glossed_terms,
    is_phrase,
    kind_of,
    name_before_kind,
    name_parameter,
    named_things,
    names_a_thing,
    names_in_capitals,
    names_nothing,
    names_of_a_kind,
)
from toolkit.local.decision.records import glossed_number

_BY_NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def test_a_latin_name_states_its_kind_in_its_last_words():
    assert kind_of("Harrowden Sawmill", ["get_ferry_crossing", "get_sawmill"]) == "get_sawmill"
    assert kind_of("Bexley Salt Pan", ["get_clock_tower", "get_salt_pan"]) == "get_salt_pan"
    # the last word counts most: a bridge's name in a bakery's
    assert kind_of("Bridge Street Bakery", ["get_bridge", "get_bakery"]) == "get_bakery"
    # a word that begins the tool's compound ("brick" of brickworks) is its kind too
    assert kind_of("Fenwick Brick Yard", ["lookup_brickworks", "lookup_pottery"]) == (
        "lookup_brickworks"
    )


def test_a_name_compounds_its_kind_or_ends_the_kinds_word():
    # a kind word compounded with a place's head ("Bootworks", "Rackhouse") is the kind
    assert kind_of("Pellow Bootworks", ["get_boot_factory", "get_tannery"]) == "get_boot_factory"
    assert kind_of("Ashby Coalyard", ["get_coal_merchant", "get_dairy"]) == "get_coal_merchant"
    # and a name's kind word that begins a tool's compound with such a head ("Baths" of a
    # bathhouse, "Toys" of toyworks)
    tools = ["lookup_bathhouse", "lookup_clock_guild", "lookup_seed_bank"]
    assert kind_of("Lanternfield Baths", tools) == "lookup_bathhouse"
    assert kind_of("Merrow Toys", ["get_toyworks", "get_dairy"]) == "get_toyworks"
    # the end of a kind's compound word ("bindery" of bookbindery) is the kind
    assert kind_of("Orton Bindery", ["get_bookbindery", "get_bakery"]) == "get_bookbindery"
    # a head alone ("Works", "House") says no kind of a compound that ends with it
    assert kind_of("Carrow Dye Works", ["get_dye_works", "get_glassworks"]) == "get_dye_works"
    assert kind_of("Ashgrove Palm House", ["get_greenhouse", "get_tannery"]) is None


def test_a_name_without_a_kind_word_or_a_phrase_states_none():
    assert kind_of("Lindhurst Arena", ["get_ice_rink", "get_aquarium"]) is None
    assert kind_of("the sawmill", ["get_sawmill", "get_ferry_crossing"]) is None  # no name
    assert kind_of("Harrowden Sawmill", ["add", "multiply"]) is None


def test_a_chinese_name_states_its_kind_in_the_dictionary_words_it_ends_with():
    tools = ["get_quarry", "get_tram_depot", "get_silk_mill", "get_sawmill"]
    assert kind_of("格林伍德锯木厂", tools) == "get_sawmill"  # 锯木厂: saw mill
    # 丝绸 "silk" outweighs 厂 "factory; depot" (a longer word over a one-character one)
    assert kind_of("布伦特丝绸厂", tools) == "get_silk_mill"
    assert kind_of("诺斯菲尔德船闸", ["get_canal_lock", "get_tannery"]) == "get_canal_lock"
    assert kind_of("卡林顿消防队", ["lookup_ski_lift", "lookup_fire_brigade"]) == (
        "lookup_fire_brigade"
    )
    # a kind the dictionary's glosses do not give in the tool's words: no guess
    assert kind_of("彭德尔养蜂场", ["get_apiary", "get_windmill"]) is None


def test_only_a_tool_that_looks_things_up_by_name_alone_takes_a_name():
    assert name_parameter("get_sawmill", _BY_NAME) == "name"
    own = {"type": "object", "properties": {"sawmill": {"type": "string"}}, "required": ["sawmill"]}
    assert name_parameter("get_sawmill", own) == "sawmill"
    # the weather of a city is no lookup of the city by its name
    city = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    assert name_parameter("get_weather", city) is None
    two = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "year": {"type": "integer"}},
        "required": ["name", "year"],
    }
    assert name_parameter("get_sawmill", two) is None
    assert name_parameter("get_sawmill", None) is None
    # a person is looked up by name; a number standing for one is no name
    person = {
        "type": "object",
        "properties": {"person": {"type": "string"}},
        "required": ["person"],
    }
    assert name_parameter("luthier_profile", person) == "person"
    by_id = {
        "type": "object",
        "properties": {"person_id": {"type": "string"}},
        "required": ["person_id"],
    }
    assert name_parameter("get_education", by_id) is None


def test_a_chinese_span_refused_is_cut_after_the_word_of_the_tools_kind():
    # a span of "格林伍德锯木厂工人俱乐部的…": the sawmill's name ends at 锯木厂
    assert name_before_kind("格林伍德锯木厂工人", "get_sawmill") == "格林伍德锯木厂"
    assert name_before_kind("格林伍德锯木厂", "get_sawmill") is None  # it ends there
    assert name_before_kind("格林伍德锯木厂工人", "get_canal_lock") is None  # no such word
    assert name_before_kind("Greenwood Sawmill Club", "get_sawmill") is None  # not Chinese
    # a span of "离格林伍德锯木厂最近的…" opens with a preposition: the name follows it
    assert name_before_kind("离格林伍德锯木厂", "get_sawmill") == "格林伍德锯木厂"
    assert name_before_kind("从格林伍德锯木厂工人", "get_sawmill") == "格林伍德锯木厂"
    assert name_before_kind("离木厂", "get_sawmill") is None  # too short to hold a name


def test_the_things_a_chinese_question_names_end_with_the_words_of_their_kinds():
    tools = ["get_dock", "get_canal", "get_station"]
    question = "琥珀码头的煤沿着一条运河运出去，那条运河有多少座船闸？"
    assert named_things(question, tools) == [("琥珀码头", "get_dock")]  # "一条运河": no name
    listed = "格林伍德锯木厂、诺斯比锯木厂和梅尔顿锯木厂一共有多少名工人？"
    assert named_things(listed, ["get_sawmill", "get_canal_lock"]) == [
        ("格林伍德锯木厂", "get_sawmill"),
        ("诺斯比锯木厂", "get_sawmill"),  # a transliteration's 比 is no comparison
        ("梅尔顿锯木厂", "get_sawmill"),
    ]
    compared = "布伦特丝绸厂比阿尔斯顿丝绸厂多多少台织机？"
    assert named_things(compared, ["get_silk_mill", "get_quarry"]) == [
        ("布伦特丝绸厂", "get_silk_mill"),
        ("阿尔斯顿丝绸厂", "get_silk_mill"),
    ]
    # the question's opening words are no part of the name
    assert named_things("请告诉我诺斯菲尔德船闸有多深。", ["get_canal_lock"]) == [
        ("诺斯菲尔德船闸", "get_canal_lock")
    ]
    # in Latin letters, a name in capitals whose words state the kind
    assert named_things("How deep is Northfield Lock?", ["get_canal_lock"]) == [
        ("Northfield Lock", "get_canal_lock")
    ]


def test_a_requests_own_words_are_no_part_of_the_name_after_them():
    question = "我们团队想同时订石堆灯小屋和雪潭小屋，两处加起来最多有几张床位？"
    assert named_things(question, ["get_mountain_hut"]) == [
        ("石堆灯小屋", "get_mountain_hut"),
        ("雪潭小屋", "get_mountain_hut"),
    ]
    request = "帮我分别查一下布拉肯福德风车磨坊和托尔盖特风车磨坊的工人数。"
    assert [n for n, _ in named_things(request, ["get_windmill"])] == [
        "布拉肯福德风车磨坊",
        "托尔盖特风车磨坊",
    ]


def test_a_tools_short_form_is_read_as_its_word_written_out():
    # "coop" of get_bee_coop is 合作社 "cooperative"; without it the name was cut at 蜂
    question = "山楂谷养蜂合作社一共有多少名社员？"
    assert named_things(question, ["get_bee_coop", "get_forge"]) == [
        ("山楂谷养蜂合作社", "get_bee_coop")
    ]
    assert named_things("Who runs Hollin Dept?", ["get_dept"]) == [("Hollin Dept", "get_dept")]


def test_a_name_made_of_the_questions_lower_case_words_is_no_name():
    question = (
        "If you add up the members of Clover Vale Beekeepers and Heatherline Apiarists, "
        "how many beekeepers is that in total?"
    )
    assert capitalised_from_lower_case("Total Beekeepers", question)
    assert not capitalised_from_lower_case("Clover Vale Beekeepers", question)
    assert not capitalised_from_lower_case("Vale Beekeepers", question)  # the user's capitals
    # a question that writes its names in lower case leaves the model's capitals alone
    assert not capitalised_from_lower_case(
        "Copperbell Forge", "which ferry does copperbell forge use?"
    )
    # but words it writes apart are no name of its ("our mill … handmade paper")
    problem = "Our mill has 2,340 sheets of handmade paper, 18 to a bundle. How many bundles?"
    assert capitalised_from_lower_case("Handmade Paper Mill", problem)
    assert not capitalised_from_lower_case("Handmade Paper", problem)


def test_a_phrase_of_the_question_is_no_name():
    assert is_phrase("马厩一共有多少匹")
    assert is_phrase("煤矿的矸石山上放")
    assert is_phrase("那座矿")
    # a number counting things, a year said by its distance: the question's words
    assert is_phrase("去年多画25块招牌")
    assert is_phrase("今年的产量")
    assert not is_phrase("7号仓库") and not is_phrase("三里屯")
    assert not is_phrase("琥珀码头")
    assert not is_phrase("Amber Dock")
    # in Latin letters, a named thing's thing in lower case
    assert is_phrase("Corran Harbour's ropewalk")
    assert not is_phrase("Corran Harbour") and not is_phrase("Schindler's List")


def test_a_question_names_a_thing_of_a_lookups_kind():
    lookups = ["get_boot_factory", "get_ropewalk"]
    assert names_a_thing("How many workers does Pellow Bootworks have?", lookups)
    assert names_a_thing("彭罗绳索厂和卡文绳索厂一共有多少名工人？", ["get_rope_works"])
    # a question of general knowledge names nothing of the tools' kinds
    assert not names_a_thing("Who painted The Night Watch?", lookups)
    assert not names_a_thing("光在真空中的速度是多少？", ["get_rope_works"])
    assert not names_a_thing("How many workers does Pellow Bootworks have?", [])
    # names in capitals, without an article, of two words or more
    assert names_in_capitals("The Osprey lies near Corrie Head Light.") == ["Corrie Head Light"]


def test_the_words_of_a_kind_alone_name_nothing():
    assert names_nothing("修道院", "get_monastery")
    assert names_nothing("那家修道院", "get_monastery")
    assert names_nothing("the Ropewalk", "get_ropewalk")
    assert names_nothing("rope_walk_name", "get_rope_walk")  # the parameter's placeholder
    assert not names_nothing("Penmoor Rope Walk", "get_rope_walk")
    assert names_nothing("Boot Factory", "get_boot_factory")
    assert names_nothing("锻坊", "get_forge")  # the kind's word and a place's last character
    assert names_nothing("年", "get_bakery")  # one character is no name
    assert not names_nothing("铁溪锻坊", "get_forge")
    assert not names_nothing("凯尔德修道院", "get_monastery")  # a name before the kind
    assert not names_nothing("Penmoor Ropewalk", "get_ropewalk")
    assert not names_nothing("修道院", "get_ropewalk")  # another tool's kind


def test_a_counted_chinese_list_names_each_thing_of_its_kind():
    # "A、B和C这三家绳索厂": each name before the count, with the kind's word after it
    question = "彭罗、阿什比和卡文这三家绳索厂一共有多少名工人？"
    assert named_things(question, ["get_rope_works", "get_dock"]) == [
        ("彭罗绳索厂", "get_rope_works"),
        ("阿什比绳索厂", "get_rope_works"),
        ("卡文绳索厂", "get_rope_works"),
    ]
    assert named_things("彭罗和卡文两家绳索厂有几台机器？", ["get_rope_works"]) == [
        ("彭罗绳索厂", "get_rope_works"),
        ("卡文绳索厂", "get_rope_works"),
    ]
    # a count with no name before it names nothing
    assert named_things("这三家绳索厂一共有多少名工人？", ["get_rope_works"]) == []


def test_a_chinese_question_names_a_records_english_label_through_its_glosses():
    ropewalk = "Penmoor Ropewalk (彭穆尔绳索厂): founded 1820, 14 workers, 3 horses, 900 m"
    # 工人 "worker" says the workers; a question no label's word is in: none
    assert glossed_number(ropewalk, glossed_terms("彭穆尔绳索厂有多少名工人？")) == "14"
    assert glossed_number(ropewalk, glossed_terms("彭穆尔绳索厂的绳子有多结实？")) is None
    # the words that ask ("多少": "number", "amount") name no label
    counts = "Penmoor: number of ropes 40, amount of hemp 12 t"
    assert glossed_number(counts, glossed_terms("有多少？")) is None
    # a word inside a thing's name is not the question's (植物 "plant" of 植物园)
    garden = '{"plant_species": 6300, "glasshouses": 5}'
    assert glossed_number(garden, glossed_terms("那家植物园有几座温室？")) is None
    assert glossed_number(garden, glossed_terms("那家植物园有多少种植物？")) == "6300"
    # of two labels said, the one nearest the question's end ("消防站 … 消防车": the engines)
    station = '{"engines": 3, "firefighters": 27}'
    assert glossed_number(station, glossed_terms("那个消防站有几辆消防车？")) == "3"
    assert glossed_terms("How many horses?") == {}
    # a word of a tool's kind names the thing, not its field, when it is the kind's head or
    # a place's last character follows it (绳索 of "彭穆尔绳索厂"); the same word on its own,
    # or a word that only shares the kind's modifier (消防车 "fire engine"), asks for a field
    record = "Penmoor Rope Works: founded 1820, 410 ropes a week, 14 workers"
    question = "彭穆尔绳索厂做了多少根绳索？"
    assert glossed_number(record, glossed_terms(question)) == "410"
    assert glossed_number(record, glossed_terms(question, ["get_rope_works"])) == "410"
    assert glossed_terms("彭穆尔绳索厂有多少名工人？", ["get_rope_works"]).keys() >= {"worker"}
    assert "rope" not in glossed_terms("彭穆尔绳索厂有多少名工人？", ["get_rope_works"])
    question = "昆比种马场归哪个消防站负责？那个消防站有几辆消防车？"
    terms = glossed_terms(question, ["stud_farm_info", "fire_station_info"])
    assert glossed_number(station, terms) == "3"
    assert "station" not in terms  # 消防站 says the kind's head: the thing, no field


def test_a_counted_span_of_time_names_the_label_a_rate_is_per():
    # 一年 "one year": 年 alone is glossed "surname Nian" first; counted, it is the year
    kiln = "Orrin Kiln | 奥林窑 | pots/week=300 | staff=12 | firings/year=48 | chimney height=19 m"
    question = "奥林窑一年要烧多少次窑？"
    assert {"year", "annual"} <= glossed_terms(question).keys()
    assert glossed_number(kiln, glossed_terms(question)) == "48"
    assert glossed_number(kiln, glossed_terms("奥林窑每周做多少个罐子？")) == "300"
    # a unit's digit is no number of the record ("m2")
    hall = "Orrin Hall | 奥林厅 | seats: 300 | floor area m2: 1350 | staff: 12"
    assert glossed_number(hall, glossed_terms("奥林厅的面积是多少平方米？")) == "1350"
    # a year that is no span counted ("哪年") names none
    assert "year" not in glossed_terms("奥林窑是哪年建的？")


def test_the_words_that_ask_for_values_combined_name_no_label():
    # 加起来 "add up": its 起来 glosses "to stand up", which is no "shearing stands"
    shed = "Name: Windrow Shed\nshearing stands: 6\nshearers: 11\nsheep shorn per day: 340"
    question = "两个剪毛棚一天加起来能剪多少只羊？"
    assert "stand" not in glossed_terms(question)
    assert glossed_number(shed, glossed_terms(question)) == "340"
    for words in ("一共", "总共", "合计", "加在一起"):
        assert glossed_terms(words) == {}, words


def test_a_possessive_after_a_plural_and_a_whole_sentence_are_phrases():
    value = "Thornbury Brickworks' biggest customer is a concert hall."
    assert is_phrase(value)
    assert is_phrase("Thornbury Brickworks' biggest customer")
    assert not is_phrase("Thornbury Brickworks")
    assert named_things(value, ["lookup_brickworks", "concert_hall_details"]) == [
        ("Thornbury Brickworks", "lookup_brickworks")
    ]


def test_a_question_names_things_of_a_lookups_kind_it_says():
    by_name = {"properties": {"name": {"type": "string"}}, "required": ["name"]}
    schemas = {"clockmaker_record": by_name, "subtract": {"properties": {}, "required": []}}
    question = "Between Tallis and Brummel, which clockmaker has built more clocks?"
    assert names_of_a_kind(question, schemas)
    assert not names_of_a_kind("Which clockmaker has built more clocks?", schemas)  # no name
    assert not names_of_a_kind("Between Tallis and Brummel, who is taller?", schemas)  # no kind


def test_which_year_is_no_counted_year():
    # 哪一年 asks which year: no rate per year ("annual") is asked
    terms = glossed_terms("凯尔比冰壶协会是哪一年成立的？", ["curling_club_stats"])
    assert "annual" not in terms
    assert {"year", "annual"} <= set(glossed_terms("一年能造出多少台？"))  # one year: a rate


def test_a_name_runs_to_its_company_or_society_word():
    tools = ["seaweed_farm_profile", "glass_eye_supplier"]
    assert named_things("塞尔基林海藻公司养了几种海藻？", tools) == [
        ("塞尔基林海藻公司", "seaweed_farm_profile")
    ]
    assert named_things("凯尔比冰壶协会是哪一年成立的？", ["curling_club_stats"]) == [
        ("凯尔比冰壶协会", "curling_club_stats")
    ]


def test_a_verb_before_a_kind_word_is_no_name():
    question = "我在整理啤酒花产区的资料：黑泽尔比啤酒花园、奥林蔓藤农场这两家一共有多少英亩地？"
    names = [name for name, _ in named_things(question, ["get_hop_farm"])]
    assert names == ["黑泽尔比啤酒花园", "奥林蔓藤农场"]  # not 整理啤酒花, "to sort the hops"


def test_a_kind_and_its_place_word_name_nothing():
    assert names_nothing("旋转木马工坊", "carousel_workshop_card")  # "carousel" and a workshop
    assert not names_nothing("格里默福德旋转木马工坊", "carousel_workshop_card")


def test_the_places_a_chinese_question_names_whatever_their_kind():
    from toolkit.local.decision.kinds import place_names

    question = "阿什伯恩铁匠铺和基尔布莱德铁匠铺，去年谁打的铁门更多？差几扇？"
    assert place_names(question) == ["阿什伯恩铁匠铺", "基尔布莱德铁匠铺"]
    assert place_names("一年十二个月里，哪个月的天数最少？") == []
    assert place_names("那个铁匠铺有几个铁砧？") == []  # 那个: pointed at, not named


def test_a_unit_of_one_character_names_the_label_in_it():
    terms = glossed_terms("这三个蔓越莓沼的采收量加起来一共是多少吨？", ["cranberry_bog_stats"])
    record = "Brackwell Bog | acres 64 | harvest 312 t | pickers 45"
    assert glossed_number(record, terms) == "312"


def test_of_labels_as_said_the_barer_one_is_asked():
    terms = glossed_terms("那个龟园现在养着多少只乌龟？", ["tortoise_sanctuary_record"])
    record = '{"tortoises": 213, "oldest_tortoise_age_years": 134, "acres": 58}'
    assert glossed_number(record, terms) == "213"  # not the oldest tortoise's age


def test_place_names_end_before_a_comparison_or_a_lists_count():
    from toolkit.local.decision.kinds import place_names

    compared = "索雷尔比花市和加洛米尔花市相比，哪边卖的玫瑰品种多一些？"
    assert place_names(compared) == ["索雷尔比花市", "加洛米尔花市"]
    counted = "佩林厄姆钟绳坊、斯塔夫克罗斯绳阁、吉尔德摩尔钟绳工坊这三家老店，各自是哪一年创立的？"
    assert place_names(counted) == ["佩林厄姆钟绳坊", "斯塔夫克罗斯绳阁", "吉尔德摩尔钟绳工坊"]


def test_names_listed_in_capitals_are_things_to_look_up():
    from toolkit.local.decision.kinds import names_listed

    schemas = {
        "bagpipe_workshop_info": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
        }
    }
    asked = "I'm choosing between Dunmorrow and Wrennock for new pipes. Which one is cheaper?"
    assert names_listed(asked, schemas)
    assert names_listed("Is it colder at Ashby, Corran or Dunlow?", schemas)
    assert not names_listed("Who painted the Sistine Chapel?", schemas)  # one name
    assert not names_listed("Paris and London: which is colder?", schemas)  # the first words
    assert not names_listed("Is Dunmorrow or Wrennock cheaper?", {})  # no lookup offered


def test_the_place_name_a_chinese_phrase_begins_with():
    from toolkit.local.decision.kinds import place_head

    assert place_head("奎雷尔织房最大的客户是一家攀岩馆。") == "奎雷尔织房"
    assert place_head("布兰诺克升空草场每次放飞热气球") == "布兰诺克升空草场"
    assert place_head("泽尔布鲁克豆腐厨房") is None  # a name, no phrase after it
    assert place_head("北京的天气") is None  # no place's ending before the phrase
    assert place_head("那家厂一天能装多少罐") is None
    assert place_head("Quenby Studio's biggest client") is None
    # a waterway's name, and where on it
    assert place_head("费林顿航道上的驳船最多能装多少吨？") == "费林顿航道"
    assert place_head("知道的事情有多少？") is None


def test_a_calls_phrase_or_half_latin_name_is_written_as_the_question_names_it():
    from toolkit.local.decision.kinds import heads_of

    assert heads_of({"name": "费林顿航道上的驳船最多能装多少吨？"}) == {"name": "费林顿航道"}
    question = "萨菲尔沙丘香水厂的兰花是从哪家兰圃进的？那家兰圃有几个温室？"
    assert heads_of({"name": "Safira沙丘香水厂"}, question) == {"name": "萨菲尔沙丘香水厂"}
    assert heads_of({"name": "Safira沙丘香水厂", "year": 2020}, question) == {
        "name": "萨菲尔沙丘香水厂",
        "year": 2020,
    }
    # a name as the question writes it, a Latin name, or a Chinese half the question lacks
    assert heads_of({"name": "萨菲尔沙丘香水厂"}, question) is None
    assert heads_of({"name": "Saffir Dune Perfumery"}, question) is None
    assert heads_of({"name": "Safira月亮厂"}, question) is None


def test_place_names_joined_by_plus_and_a_docks_name():
    from toolkit.local.decision.kinds import place_names

    question = "洛里默船屋码头加上塔姆辛水上码头，总共能提供多少个泊位？"
    assert place_names(question) == ["洛里默船屋码头", "塔姆辛水上码头"]


@pytest.mark.parametrize(
    ("tool", "schema", "key"),
    [
        ("salt_pan_info", {"site": {"type": "string"}}, "site"),  # a thing of any kind
        ("fetch_facts", {"code": {"type": "string", "description": "Name of the mill"}}, "code"),
        ("get_weather", {"city": {"type": "string", "description": "The city name"}}, None),
        ("opening_hours", {"place": {"type": "string"}}, None),
    ],
)
def test_the_key_a_lookup_takes_a_name_in(tool: str, schema: dict, key: str | None) -> None:
    parameters = {"type": "object", "properties": schema, "required": list(schema)}
    assert name_parameter(tool, parameters) == key


def test_a_description_that_names_names_in_passing_makes_no_lookup():
    described = (
        "The command must be specified as a string in Korean, consisting of the room name, "
        "appliance name (or alias), and operation command, separated by commas."
    )
    parameters = {
        "type": "object",
        "properties": {"command": {"type": "string", "description": described}},
        "required": ["command"],
    }
    assert name_parameter("ControlAppliance.execute", parameters) is None
