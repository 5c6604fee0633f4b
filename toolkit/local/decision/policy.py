"""The settings of the embedded server's text-or-call decision: every threshold, in one place.

The small embedded model has habits that a grammar alone does not fix: it writes a call as a
fenced ```` ```json ```` block rather than the ``<tool_call>`` block its template teaches, never
opens a second call by itself, calls some tool even when none fits, and asks again for what a
tool result just told it. The decision rests on signals read from the model's own
probabilities at a few points, and on what the conversation already says:

1. **Nudge.** For ``tool_choice="auto"`` one sentence joins the system turn: call a function
   only when one fits, otherwise answer in text (:attr:`ToolPolicy.nudge`; see
   :mod:`toolkit.local.decision.prompt`).
2. **Text or call?** The first-token probability of everything that does not open a call
   (:func:`toolkit.local.decision.signals.text_probability`): text when it reaches
   :attr:`ToolPolicy.text_threshold` — unless, before any result, the model is all but sure
   which offered tool it would call (:attr:`ToolPolicy.sure_call_threshold`) and that call
   is sound: a tool that knows the answer beats the small model's recall.
3. **Is it for these tools?** With ``<tool_call>`` and ``{"name": "`` appended, the probability
   that the model names an offered tool (:func:`~toolkit.local.decision.signals.
   name_probabilities`): when the question needs a function that is not offered the model
   reaches for a name of its own, and the answer is text under
   :attr:`ToolPolicy.name_threshold`.
4. **One more call?** Made to write another call, the model writes the second city, the other
   artist — or a copy, shuffled values or invented ones. The extra call is kept only when it
   brings values the conversation mentions and no earlier call of the answer used
   (:mod:`toolkit.local.decision.grounding`), and not when it is a chain's later step that
   puts a spent number where an earlier call's result belongs (``add(144, 7)`` after
   ``divide(144, 12)``, :mod:`toolkit.local.decision.chains`): after the result that call is
   written with the result in the spent number's place. What it brings must be a number or a
   word of the conversation, not a function word or a word of the tools' names
   (``route="Paris to Rome"`` after ``shortest_path("Paris", "Rome")``). One given up at a
   slip of the user's words ("Cater Lake") is written again in the conversation's phrases
   (:attr:`ToolPolicy.slip_ratio`).
5. **Already answered?** A call that repeats an earlier one, asks only for what its earlier
   results already say, or (with nothing of the question left waiting) asks another tool
   what this turn already asked, is redundant; the next most likely tool is tried instead
   (any tool, while numbers of the question still wait), and when there is none the answer
   is text built from the results. A repeat that asks a second tool about the value a first
   tool took (``get_email("Carol")`` again once ``get_manager("Carol")`` answered "Dave") is
   written with that tool's answer in its place first (:mod:`toolkit.local.decision.chains`).
   Once a step has combined the earlier results and left no
   number unused, a wish to call a tool this turn already called is not even tried: the
   answer is written (:attr:`ToolPolicy.answer_when_combined`). When every result failed
   and a tool is untried, that tool may be the next step (the chain's first one, asked of
   the wrong tool); when every call was rejected, a sound call of a tool the question names
   is made however unlikely the model is to name it. A chain's next step that asks only
   spent numbers again ("then add 16" answered ``plus(12, 7)``) is written again with only
   the results' and the question's unused numbers.
6. **Grounded?** A call whose values the conversation never gave (numbers nobody stated, text
   nobody wrote: a small model copies a tool description's examples; a date the user wrote
   counts in any spelling, "2022-04-05" for "April 5, 2022") gives way to a tool whose
   call is grounded; after results it is written again with only the stated numbers; when no
   tool does better, one that only translated the user's words or copied a description's
   example is written again in the user's words. A text value that borrows words from its
   description's quoted example ("Tel Aviv, CA" after "such as 'San Francisco, CA'") is
   written again without them.
7. **Is the text an answer?** Before any result, a text answer that writes a call out, echoes
   the question or states a number nobody gave is decoded as calls instead (for such a
   number, only a sound call: else the model's knowledge stands,
   :attr:`ToolPolicy.known_numbers_kept`). After results, the
   answer comes from a final-answer step (the question and the labelled results, without the
   tools), may state only numbers that were stated (a minus sign it drops is put back), and
   may not hold call JSON. A comparison the question asks of looked-up numbers is written
   out for it (:attr:`ToolPolicy.compare_results`).
8. **Refused?** A call of the last step that a tool refused at a text value is written once
   more in another form of that value — without the quotes or brackets around it, its last
   word in the other number, one item of a list written as one value, a phrase of the
   conversation that is a slip of it, or a key the refusal lists that holds its words —
   when there is one (:attr:`ToolPolicy.retry_failures`,
   :mod:`toolkit.local.decision.retries`); an error that repeats a value answers nothing
   about it, so the list's other items may follow as extra calls. A refusal's keys that the
   user's words name are the forms tried. A call that failed at a value that another tool
   then answered with a record is made again with the record's value for it
   (:attr:`ToolPolicy.resume_failed_steps`).
9. **Which step of a chain?** A question that goes on after the clause stating its first
   unused number ("128 加 76，然后把结果除以 4") is read up to that clause too: a tool the model
   is sure of there opens the step (:attr:`ToolPolicy.first_clause_threshold`,
   :mod:`toolkit.local.decision.clauses`). A factor written as a word ("halve", "三倍") is a
   number the step may take; a number written twice for one the question states once takes
   the place of its next unused one (``divide(250, 250)`` → ``divide(250, 2)``); the same
   inputs asked of another tool while later numbers wait are the last step written too soon;
   and once the chain is done, a call that takes a question's number again is not made.
10. **Which field of a record?** A lookup that answers with a record states several numbers
   (journey 95 minutes, fare 68 yuan). A call that combines two fields of one record while
   records of its kind wait takes the first field of each (``add(95, 130)`` for one train's
   ``add(130, 92)``); a call that only combines fields of one record, the only one of its
   kind, with no number of the question (``multiply(888, 4)``: a suite's rate times its
   guests) asks again, the record answers; and an extra call over the records' other
   quantity (their weights beside their prices) is not made (:attr:`ToolPolicy.record_fields`,
   :mod:`toolkit.local.decision.records`).
11. **What does a list ask for?** When the model has nothing new to write as one more call, a
   value of its calls that the question writes in a list ("resistivity of copper and
   aluminum", "a loan term of 15, 20 and 30 years") asks for the call again with each other
   item in its place; two lists that cross ask for every pair ("the Lakers and the Bulls in
   2018 and 2020"), two the question pairs "respectively" for the items in the same places
   (:attr:`ToolPolicy.listed_items`, :mod:`toolkit.local.decision.coordination`). An
   ``enum``'s members count as items in words of their own ("the last six months, the last
   year" for ``"six_months"``, :attr:`ToolPolicy.named_members`).
12. **A question of arithmetic?** With only arithmetic tools offered, a question stating two
   numbers or more is written by the model as one expression over those numbers; its
   operations are the calls, innermost first (:attr:`ToolPolicy.plan_arithmetic`,
   :mod:`toolkit.local.decision.arithmetic`).
13. **How do looked-up values combine?** Once lookups have answered and the model would call
   an arithmetic tool, it writes the question as one expression over the numbers of the
   question and of the results, each result's value used once; its operations are the
   calls (:attr:`ToolPolicy.combine_results`, :mod:`toolkit.local.decision.combining`).
   The same holds when it would answer in text but the question asks for a total, an
   average, a difference or a ratio (:attr:`ToolPolicy.combine_when_asked`), and no
   combination is made when it asks for each value on its own
   (:attr:`ToolPolicy.each_stays_apart`).
14. **A call described?** Before any result, a text answer that names an offered tool ("you
   can call the `ChaFod` function with …") is the call the model would make: it is tried, and
   made when it is sound (:attr:`ToolPolicy.named_tool_calls`,
   :mod:`toolkit.local.decision.mentions`).

15. **In what form?** The calls made write each value as its parameter takes it: a
   percentage the user states is a fraction in a ``number`` parameter unless its description
   says percent, a text value drops the words another argument holds, its parameter's own
   name and a lower-case leading article, and an optional choice or list item nobody asked
   for is left out (:attr:`ToolPolicy.value_forms`, :attr:`ToolPolicy.unasked_choices`,
   :mod:`toolkit.local.decision.forms`). One more call that only moves an earlier call's
   value to another parameter is not made (:attr:`ToolPolicy.values_keep_places`).

:mod:`toolkit.local.decision.decoding` turns these into decoding.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_NUDGE", "RESULTS_NUDGE", "ToolPolicy"]

#: Added to the system turn when tools are offered with ``tool_choice="auto"``.
DEFAULT_NUDGE = (
    "Call a function only when one of the functions below can do what the user asks; "
    "otherwise answer directly in plain text without calling any function."
)
#: Appended as a last system message when every call the model wants repeats an earlier one
#: (see :func:`toolkit.local.decision.prompt.results_nudge`).
RESULTS_NUDGE = "Answer the user's question in plain text using the function results above."

_PROBABILITIES = (
    "text_threshold",
    "name_threshold",
    "refusal_name_threshold",
    "name_floor",
    "alternative_threshold",
    "waiting_alternative_threshold",
    "foreign_call_threshold",
    "sure_call_threshold",
    "call_intent_threshold",
    "call_intent_name_floor",
    "first_clause_threshold",
    "slip_ratio",
)


@dataclass(frozen=True)
class ToolPolicy:
    """Settings of the tool-versus-text decision (see the module docstring).

    Attributes:
        text_threshold: Answer in text when the model's first-token probability of text
            (not opening a call) is at least this; lower means more calls.
        name_threshold: Answer in text when the model's probability of naming one of the
            offered tools is below this.
        refusal_name_threshold: A text answer that declines (:attr:`refusals_looked_up`)
            is replaced by a sound call only when the model would name an offered tool with
            at least this probability. On the BFCL dev cases, the declining first answers
            that should stay text had 0.0 and 0.23.
        name_floor: While a tool name is scored token by token, a running probability under
            this counts as zero (the name is not followed further: it saves evaluations).
        alternative_threshold: When the most likely call is redundant, another tool is tried
            only if the model names it with at least this probability.
        waiting_alternative_threshold: :attr:`alternative_threshold` while the question
            still holds numbers no step has used ("then add 7" after the division's result),
            or a result is a name no call took yet (the captain asked how old the captain
            is): the question needs another step, so every tool not yet tried may be it. The
            model's probability of naming the step's tool there sits round
            :attr:`alternative_threshold` (``add`` after ``divide(144, 12)`` answered: under
            0.01 with the evaluated context kept, over it when the prompt is read afresh).
        foreign_call_threshold: A call written out in a text answer is taken for a call of a
            function the tools do not have — the words before it are the answer — when the
            model's probability of naming an offered tool is under this; at or above it, the
            answer is decoded as calls. Chosen on the BFCL dev split (the first 50 cases of
            each category): written-out calls of functions not offered came with 0.00–0.03,
            of offered tools with odd names (``ChaFod``, ``uber.ride``) 0.20–0.35.
        sure_call_threshold: Before any tool result, when the model prefers text
            (:attr:`text_threshold` reached) but names an offered tool with at least this
            probability, the call is written and made if it is sound (no repeat, its values
            the conversation's): the small model's recall is worse than a tool that fits
            ("埃及的首都是埃及。" asked for Egypt's capital beside ``get_capital``). Chosen on
            the dev sets: the agent dev set's text-preferring questions that a tool fits were
            named with 0.61–0.99 (seven of them), its chit-chat with at most 0.03, and BFCL's
            irrelevance dev split's near misses with 0.56–0.99 (ten of 23 text-preferring cases
            over 0.5, three with a sound call, one of them over 0.9).
        call_intent_threshold: Before any tool result, when the model's text probability is
            under this — it all but means to call — while it names no offered tool with
            :attr:`name_threshold` but with at least :attr:`call_intent_name_floor` (the name
            it would write is a paraphrase of an offered one: ``obtener_pago_mensual_credito_
            auto`` for ``obtener_cotizacion_de_creditos``), a call of the offered tools is
            written and made only if it is sound; otherwise the answer is text. Without it
            the small model, kept from its call, writes "Mark task as completed". Chosen on
            the BFCL dev splits (cases 0–49 and 50–89): eight text answers that became
            right calls this way had text probability 0.016–0.045; below 0.05 one
            irrelevance dev case became a sound call of a tool that does not fit (naming it
            with 0.004), as the agent dev set's "Translate "good morning"" did (0.01).
        call_intent_name_floor: See :attr:`call_intent_threshold`: seven of those eight
            named an offered tool with 0.125–0.47, one with 0.002; the two wrong calls
            0.004 and 0.01.
        first_clause_threshold: When the question goes on after the clause that states
            its first number no step used yet (before any result, its first number: a chain,
            "128 加 76，然后把结果除以 4"), the model is asked which tool it would name for the
            question read only up to that clause
            (:func:`~toolkit.local.decision.clauses.step_prefix`); the step's call opens
            with that tool when it differs from the whole question's likeliest and is named
            with at least this probability (1.0 turns it off). Chosen on the dev sets:
            first steps read from the first clause were named with 0.98–1.00 where they
            differed rightly (the addition of "128 加 76", the parcel's tracking before its
            hub), and the questions where the first clause misleads were under 0.65 ("I buy
            3 kg of apples." 0.62, a word problem's first clause 0.27).
        slip_ratio: An extra call given up at a text value that nobody wrote but that is this
            close to a phrase of the conversation no call used yet (the similarity of
            :class:`difflib.SequenceMatcher`, case-folded: "Cater Lake" for "Crater Lake" is
            0.95) is written again with its strings made of the conversation's phrases
            (:func:`~toolkit.local.decision.phrases.slip_of`). A letter dropped from a
            five-letter word is 0.89; two different cities are rarely over 0.8 ("Berlin" and
            "Bern" are 0.8, "Austin" and "Boston" 0.5).
        word_share: A multi-word argument value counts as mentioned in the conversation when
            at least this share of its words occur there as whole words.
        asked_share: An extra call of another tool that brings no value new to the answer is
            kept only when at least this share of its name's own words (those the tools
            already called lack) occur in the question, outside the words naming the called
            tools' parameters (:func:`~toolkit.local.decision.turn.asked_for`).
        min_extra_call_tokens: No extra call is attempted when fewer tokens than this are
            left of the request's ``max_tokens`` (no call fits in fewer).
        max_calls: Most calls in one answer (when parallel calls are allowed).
        max_same_values: A call that writes the same value this many times in a row is in a
            loop (``"values": [1984, 1984, 1984, ...`` until the token budget ends) and is
            given up like a repeat: the next most likely tool is tried. The longest such run
            in BFCL's ground truth is a short list of zeros.
        max_list_items: A call whose list runs on past this many items, and past as many
            as the user wrote words and numbers, is in a loop (``"numbers": [12, 23, 34, …,
            131, 132, …`` asked for two distilleries' staff before any lookup) and is given
            up like a repeat. The longest list in BFCL's ground truth holds 20 items, for a
            question of 41 numbers.
        nudge: Sentence added to the system turn for ``tool_choice="auto"``; ``None`` or
            ``""`` adds nothing.
        drop_repeated_calls: Drop calls identical to one made earlier in the conversation.
        forbidden_in_text: Strings a text answer may never contain when tools are offered
            (the keys of a call written out as JSON); an offered tool's name followed by ``(``
            is refused too, so an answer can neither write a call as code nor recite the
            labels of :attr:`label_results`.
        answer_step: Once this turn's tools have answered, write the final answer from a
            prompt of its own: the question, the labelled results and a request for one
            sentence that states the result (no tool definitions).
        compare_results: When the question asks which looked-up value is larger or smaller
            ("Which is colder, Chengdu or Lhasa?") and the results are one tool's numbers for
            different values, the final-answer step is shown the comparison written out
            (:mod:`toolkit.local.decision.comparison`): the small model orders two numbers
            wrongly about as often as rightly.
        grounded_numbers: A final answer (written from tool results) may state only numbers the
            question or the results stated: the grammar admits no other digits.
        own_words: Write a first call again when its text values borrow words from a quoted
            example of their descriptions that the conversation never says ("Tel Aviv, CA"
            after "such as 'San Francisco, CA'"), with those words excluded
            (:mod:`toolkit.local.decision.examples`).
        user_words: When every call the model would make is rejected and none uses a value
            the user gave, the likeliest one whose only faults are text in a script the
            question does not use (``get_weather("广州")`` asked about Guangzhou in English) or
            a copy of a description's quoted example (``get_height("Everest")`` asked about
            Mount Fuji, after 'e.g. "Everest"') is written again with
            its strings made of the conversation's phrases
            (:mod:`toolkit.local.decision.phrases`).
        rerouted_failures: After results, when a call of one tool answered for a text value
            that calls of another tool failed at, the other values those calls failed at are
            asked of the tool that answered, with no model step (the caves looked up with the
            bridge tool: :func:`~toolkit.local.decision.retries.rerouted_failures`).
        renamed_failures: After results, when two or more calls of the last step failed at
            one text value each and each refusal lists one key the user's words name for it,
            those calls are made again with the keys, with no model step (three station
            names each written a character short:
            :func:`~toolkit.local.decision.retries.renamed_failures`).
        question_named_tools: Before any result, when the model prefers text but the
            question says in its own words what an offered tool is about — every word of its
            name but those that say how it works ("Want an order from McDonald's on Uber
            Eats?" for ``uber.eat.order``) — the call is tried, and made only when it is
            sound (:func:`~toolkit.local.decision.mentions.question_names`).
        preferred_named_calls: The same when the model prefers a call (text probability under
            :attr:`text_threshold`) but names no offered tool with :attr:`name_threshold`:
            asked "How many bottles a day do Ambery, Sollow and Tarnby Glassworks each
            make?" beside ``get_glassworks`` (text 0.12, names 0.40), the small model wrote
            three made-up records instead of a call. A question that names the tool's
            subject is tried as a sound call whichever way the model leans.
        plan_among_lookups: A question of arithmetic is planned (``plan_arithmetic``) with
            tools of other kinds offered too, when the model's first step is an arithmetic
            call: "A roll weighs 12.5 kg, a truck carries 84 rolls, 3 trucks leave a day" with
            a lookup offered beside ``add`` and ``multiply`` was ``add(12.5, 84)``.
        difference_of_order: A question that asks which of two looked-up values is larger
            and by how much ("Which has more staff, and by how many?", "哪家更大？大多少吨？")
            is answered through the subtraction of the smaller from the larger, written by
            the server once both values are in (the small model added them, or stated the
            order alone).
        named_kinds_compared: Before any result, a text answer that states the order a
            question asks of things it names, of an offered lookup's kind it says ("Between
            Pellory and Dunmarrow, which clockmaker has built more clocks?"), gives way to a
            sound call however unsure the model is of the tool's name (under
            ``comparisons_looked_up``): it stated the order no tool gave.
        sums_added_only: A plan of looked-up values for a question that asks their total
            and nothing else, with no number of its own, adds them only
            (:func:`~toolkit.local.decision.combining.asks_sum_only`): "How many people work
            at A and B put together?" was planned as ``12 * 7``.
        misread_lookups_aside: A lookup that a tool refused beside one of its calls that
            answered is left out of the values a plan combines when it asked of no thing the
            question names: a piece of an answered name or an answered name with more
            ("布拉克韦尔蔓越莓" beside "布拉克韦尔"), or a word in lower case beside names in
            capitals ("both" beside "Marlowe Shell Haven"). Before, such a refusal kept the
            turn from combining at all, and the small model answered with one record's number
            or added the wrong fields.
        refusals_not_names: A lookup by name whose value is a refusal of the turn copied
            around the name a failed call sent ("ERROR | unknown wharf | 宾德尔滚筒修理行") names
            no thing: the call is rejected, and the next tool is tried.
        resumed_steps_kept: A chain's step made after results
            (:meth:`~toolkit.local.decision.calling.CallWriter.failed_step_resumed`) keeps the
            tool it was chosen for, and is its step's one call: the kind a word of the name
            seems to state does not move it ("Oxhallow Roundabout Makers", the carousel
            workshop an accordion maker's record names, was moved to the accordion makers'
            tool by its "Makers"), and no phrase of the question or name of the records is
            asked beside it.
        chains_lead_on: A Chinese question that points at a thing by a demonstrative and
            its measure word ("那家厂有多少名员工？") is not answered from one record that
            names another thing: the thing pointed at is the one named, the chain's next
            step. "古尔黑文牡蛎公司用的帆布是哪家制帆厂供应的？那家厂有多少名员工？" was
            answered with the oyster farm's own workers.
        places_in_phrases: A lookup refused a phrase of the question (the question
            itself, sent as a name) that writes names of places or businesses
            (:func:`~toolkit.local.decision.kinds.place_names`): the names are what it is
            tried again with, whatever their kind ("阿什伯恩铁匠铺" of "阿什伯恩铁匠铺和基尔布莱德
            铁匠铺，去年谁打的铁门更多？", asked of ``forge_details``).
        retry_alone: A call tried again after a tool refused it
            (:meth:`~toolkit.local.decision.calling.CallWriter.failure_retried`) leads a step
            of its own tool: the calls probed beside it, as they are while the results'
            numbers wait to be used, are of that tool alone (another name the step's refusals
            hold). "Kessly Key & Ribbon", tried whole after "Kessly Key" was refused, came
            with ``plus(118, 525)`` and ``plus(46, 190)`` beside it, the other shops' repairs
            and ribbons added.
        named_values_looked_up: Before any result, a text answer that states numbers nobody
            gave, while the question names things of a lookup's kind and says the kind, gives
            way to a sound call, as ``named_kinds_compared`` does for an order: "I'm torn
            between Wrenfield and Lirrick for a new harp. How long is the waiting list at
            each of them?" was answered with invented waits, the model unsure of
            ``harp_workshop_info``'s name (0.19).
        ampersand_names: A name a tool refused that the question carries on with "&" is
            tried again whole (:func:`~toolkit.local.decision.retries.ampersand_name`):
            "Kessly Key" of "Kessly Key & Ribbon", which the small model cut at its "&" as at
            a list's joiner and then looked "Ribbon" up on its own.
        name_reached: An answer from the results of a chain that leaves out the name of the
            record the chain reached is written again opening with it
            (:mod:`~toolkit.local.decision.naming`): "How many metres of lead came does that
            studio have?" was answered "The studio has 1425 metres of lead".
        rates_divided: A question that asks how many of one of a record's numbers there are
            per another ("how many dogs are there for each musher?", "how many lavender
            plants per hectare?") of the one record a turn reached or looked up, which states
            both but not their ratio, gets the division of the tool that divides
            (:mod:`~toolkit.local.decision.rates`): the small model answered with the
            dividend ("48 dogs for each musher"). "How many more members than looms" of
            one record gets the subtraction the same way.
        records_scaled: A question that states numbers no step used ("a family of three",
            "再招8个工人", "翻一番") over the one record a turn reached or looked up gets the
            arithmetic of those numbers and the record's number it asks for, planned as a
            combination of looked-up values is (:mod:`~toolkit.local.decision.scaling`): the
            small model answered "what would tickets for a family of three cost?" with the
            price of one.
        possessives_bare: A lookup's name copied with its possessive is sent without it when
            the name then ends with a word of its tool's kind
            (:func:`~toolkit.local.decision.forms.without_possessive`): "Kestrow Chess
            Club's" was refused, and the answer ran on without a number.
        conditions_unasked: One more call of another tool, with only the values the answer
            already used, counts as asked for only by the question's words outside the
            conditions it sets (:func:`~toolkit.local.decision.clauses.without_conditions`):
            "how fast an object was going if it started from rest … due to a constant
            acceleration" asks for no acceleration, yet the small model added
            ``calculate_acceleration`` beside the speed (BFCL ``multiple`` dev cases).
        siblings_asked: A first call of a tool whose own words (of its name and its
            parameters' names, against a sibling's that shares a word of its name) the
            question says none of is written again as the sibling's, when the question says
            some of the sibling's own and asks one thing
            (:func:`~toolkit.local.decision.siblings.asked_sibling`): "the final velocity of
            an object thrown up at 40 m/s" was asked of ``physics.wave_velocity`` beside
            ``kinematics.final_velocity`` (BFCL ``multiple`` dev cases).
        lists_as_written: A first call's list whose items are the question's, each written
            once, in another order is written again in the question's order
            (:func:`~toolkit.local.decision.ordering.as_written`): asked to sort ['Sam', 'Alice',
            'Jack'], the small model passed ``sort_list`` the list already sorted.
        stated_optionals: A first call that left out an optional number parameter whose
            name's words the question says just before a number no argument took is written
            again with that number (:func:`~toolkit.local.decision.stated.stated_optionals`):
            "a ride … with maximum cost of $50" was called without ``max_cost``.
        stated_choices: A first call that chose a value its parameter's ``enum`` offers
            that the question does not say, while the question says exactly one other, is
            written again with that one (:func:`~toolkit.local.decision.stated.stated_choices`:
            ``category="Spanish"`` for "a Spicy Indian restaurant" becomes "Indian").
        stated_spellings: A first call's word that is one letter or one swap of neighbours
            away from exactly one word of the question is written as the question writes it
            (:func:`~toolkit.local.decision.stated.stated_spellings`: "zwzzeem" for the host
            agent "zzwzeem"); so is a call rejected for it, before any fallback.
        stated_flags: A first call's yes-or-no parameter (``boolean``, or an ``enum`` of
            "True" and "False") whose name's words the question says is written as the
            question says it, on unless a negation comes just before
            (:func:`~toolkit.local.decision.stated.stated_flags`): "Ensure it's archived after
            closure" is ``archive=True``, "don't archive it" ``archive=False``; an optional
            flag written so is no guess to leave out. On the saved BFCL dev runs' calls: 7
            cases right that were wrong, none wrong that was right.
        judged_as_sent: A call's values are judged as the call is sent: without the
            optional guesses :meth:`~toolkit.local.decision.turn.CallJudge.without_guesses`
            leaves out. "set cool mode with a temp of 24 oC and the high wind strength" was
            answered in text, since the call's body also guessed an optional
            ``targetTemperature`` of 22 (BFCL ``live_simple`` dev cases).
        described_formats: With :attr:`value_forms`, a date or a time of day is written in
            the format its parameter's description asks for ("in the format 'YYYY-MM-DD'",
            "in 24-hour format (HH:MM)"): ``date="2023.4.11"`` became "2023-04-11", an
            alarm's "5:00 PM" "17:00" (:func:`~toolkit.local.decision.formats.
            in_described_formats`).
        hemisphere_signs: A latitude or longitude the user wrote with a western or southern
            hemisphere ("119.5383 W") is written negative
            (:func:`~toolkit.local.decision.forms.in_hemisphere_signs`), as coordinate
            parameters take it.
        tool_talk_answered: Before any result, a text answer that talks about the tools
            instead of answering (names an offered tool or a function to call, writes code
            or markup) is written again as though no tool were offered: "To answer this
            question, I cannot call any function.", "Mark the function as … and call it".
        listed_names_looked_up: Before any result, a text answer that states numbers
            nobody gave, or the order a question asks, gives way to a sound call when the
            question lists names in capitals, though it says no tool's kind
            (:func:`~toolkit.local.decision.kinds.names_listed`): "I'm choosing between
            Dunmorrow and Wrennock for a new set of pipes. Which one is cheaper?" was answered
            "by $100 per set" beside ``bagpipe_workshop_info``.
        working_shown: An answer from a rate's or a reached record's worked result that
            leaves out a number of the working ends with it ("(245 * 3 = 735)"): asked the
            price of a ticket and of three, the small model stated only the total, and wrote
            the working's numbers into the wrong clauses as often as not.
        sums_end_turns: After a turn of arithmetic calls whose last step combined the results
            and left no number unused, a call of another tool the question does not ask for
            is rejected (:meth:`~toolkit.local.decision.turn.CallJudge.after_the_sum`):
            ``count_words("180 words")`` followed a word problem's last division.
        difference_before_plan: Under ``difference_of_order``, the subtraction comes before
            the plan of looked-up values the model draws
            (:meth:`~toolkit.local.decision.planning.PlanWriter.combined_steps`): "which rice
            mill runs more hulling machines, and how many more?" was planned as ``4 + 9``.
        named_things_first: Before any call of the turn, when every call the model would
            make was refused, the first thing the question names of a lookup's kind
            (``named_kinds``) is looked up, before any refused call is made as a fallback: a
            chain's first step, where the model tried arithmetic on numbers nobody gave
            ("琥珀山蜂蜜合作社把蜂蜡卖给了一家锻坊。照那家锻坊每周打马掌的数量，连续干两周一共
            能打多少只马掌？" had ``product_of(12, 2)`` tried).
        numbers_as_often_as_stated: An arithmetic call that takes one number more often
            than the conversation states it is refused, as a plan of the question that does
            is no plan: asked "布拉肯福德风车磨坊把面粉卖给了一家面包房。照那家面包房每天烤的
            面包数量，连续烤两天一共能烤多少个？", the model's first call was ``plus(2, 2)``.
            Refused, it gives way to the lookup of the named mill (``named_things_first``).
        calls_in_their_parts: In a question of several requests (sentences, or clauses
            opened by "then", "finally", "also", …), a first call whose values come from two
            parts, or from a part that says fewer of its tool's words than another, is
            written again from the part that says the most of them (of the parts its values
            come from, when two), its strings and numbers only that part's
            (:func:`~toolkit.local.decision.parts.part_to_write`). Asked for the collectables
            of 'Animal Crossing' in its first sentence and a high score in 'Fortnite' on
            'Playstation' in its second, the small model called
            ``get_collectables_in_season("Fortnite", "Playstation")``; asked for the
            Yankees' ranking in MLB for 2019, then the Lakers' for 2020, it called
            ``sports_ranking("Los Angeles Lakers", "Major League Baseball", 2020)``.
        parts_each_called: In a question of several requests, when the model has no more
            calls to make and the question's lists none to add, the first part that states
            values of its own (a number, a quoted text, a name in capitals) and that no call
            asks yet is asked for: the model writes one call with only that part's phrases as
            strings, of the tools its words fit best (none: no call), kept when it is sound,
            takes the part's values and adds grounded ones
            (:meth:`~toolkit.local.decision.calling.CallWriter._part_call`,
            :func:`~toolkit.local.decision.parts.unasked_parts`). A first step only. Asked to
            "convert 5000 Euros to US dollars", then for turtles and a trip, and "Finally, …
            convert 3000 British Pounds to Japanese Yen", the small model stopped after three
            calls.
        offered_numbers: A number its parameter's schema offers (an ``enum`` or ``const``
            value) and whose description says it stands for words the conversation says
            ("'2' for ironing service", asked about ironing) is the schema's choice, not a
            number nobody gave, as a text the schema offers already was
            (:func:`~toolkit.local.decision.grounding.ungrounded_values`); any other choice
            ("an integer from 1 to 9" tickets) still is one.
            Asked "Help find a housekeeper who provides ironing services." of
            ``get_service_id(service_id)``, ``enum: [1, 2]`` described "'2' represents
            ironing service", the small model wrote ``service_id=2``, and the call was
            refused for a number the question never states; the answer was text.
        counted_numbers: "one" and "two" before what they count ("two nights", "two
            adults and one child", "a two-bedroom flat") state the 1 and the 2 a call may take
            (:func:`~toolkit.local.decision.numbers.counted_numbers`), as "three nights"
            already did; not after a word that points at things the text names ("the two
            cities", "which one"), before a word that is no counted thing ("one of", "one
            more"), or in a clause that lists that many numbers ("two numbers: 40 and 50").
            English only. Asked "Book a single room for two nights at The Plaza hotel." of
            ``book_room``, the small model wrote ``num_nights=2``, refused for a number
            nobody gave, and answered "I'm sorry, but I can't assist with that request.".
        differences_when_asked: After lookups, a subtraction of the looked-up values is
            made only when the question asks for arithmetic
            (:func:`~toolkit.local.decision.asking.asks_arithmetic`: a total, a difference,
            an order, what is left, or a number of its own), before the turn made any
            arithmetic call (:meth:`~toolkit.local.decision.turn.CallJudge.unasked_difference`).
            Asked "How high does a boat get lifted at Fennick Lock, and at Wenlow Lock?", the
            small model subtracted one lock's lift from the other's, again and again, and
            answered with a number nobody asked for.
            And a difference asked in no order ("how many years apart were they built?") is
            the larger less the smaller, in a plan of one subtraction
            (:func:`~toolkit.local.decision.combining.larger_first`) or a call the model
            writes: the small model's plan was ``1861 - 1879``, answered "-18 years apart".
        parameter_words_aside: A text value that ends with its parameter's name word,
            copied from a text that writes the word after the value in lower case, is
            written without it (:func:`~toolkit.local.decision.forms.without_parameter_word`):
            ``cuisine="Chinese cuisine"`` is "Chinese". In the accepted answers of BFCL's dev
            cases (the first 50 of five call categories), such a lower-case word is left
            out by 15 answers (2 of them accept it too) and needed by none; a word in
            capitals is needed by 9 ("Premier League"; 2 of them accept it left out) and
            left out by none, so it stays.
        names_as_written: A lookup by name whose value is a name in capitals made only of
            words the question writes in lower case, while the question writes its own names
            in capitals, names no thing
            (:func:`~toolkit.local.decision.kinds.capitalised_from_lower_case`): "If you add
            up the members of Clover Vale Beekeepers, Amberhill Honey Co-op and Heatherline
            Apiarists, how many beekeepers is that in total?" had a fourth lookup of "Total
            Beekeepers" beside the three, and its refusal threw the sum off.
        named_lookups: Before any result, when a call is made only if it is sound (the
            model all but sure of a tool, or the question naming it) and none the model
            writes is, the first thing the question names of a lookup's kind is looked up:
            asked which of two named mushroom farms has fewer staff, the small model wrote
            the first farm's name garbled ("Mosgróf菌菇农场") and an invented subtraction,
            then answered from its own guess.
        worded_answers: Before any result, a text answer with no word in it ("1", "3") is
            written again from the conversation without the tools: with them before it the
            small model answered "How many months are in a year?" with "1" and "How many
            sides does a triangle have?" with "3"; without them, "There are 12 months in a
            year." and "A triangle has three sides." Its checks follow as for any answer.
        known_numbers_kept: Before any result, a text answer to a question that writes no
            number in digits, stating a number nobody gave, is decoded as calls only when
            one is sound (every value one the conversation gave: ``get_weather("Paris")``
            for "It is 20°C in Paris"); else the text stands. Asked "一小时有多少分钟？" with
            ``multiply`` offered, the small model's "一小时有60分钟。" was decoded as calls
            whose numbers were nobody's, then written again with stated numbers only:
            "一小时有 минут".
            A question with figures of its own ("the sales tax on $59.99") asks a tool:
            its text answer ("$14.99") is decoded as calls whether they are sound or not,
            as before (on BFCL's live_simple cases 100–119, three such calls were lost
            while the rule held for every question). Off by default: asked what happened
            while Lincoln was president, the model's call guessed the years, so no call was
            sound and its text stood, where the call should be made without the guesses.
        known_numbers_stand: Before any result, a text answer to a question that writes no
            number in digits, stating a number nobody gave, is decoded as calls as before;
            when no call at all is made in its place it stands, not a text written again
            without its numbers. Asked "在标准大气压下，水的沸点是多少摄氏度？" with a lookup
            and ``product_of`` offered, every call the model tried was refused (the question
            copied as a station's name, numbers nobody gave), and the answer written again
            was "Answer: 沸点是  boiling point"; the model's own "水的沸点是100摄氏度" now
            stands. Unlike ``known_numbers_kept``, an unsound call the model was likely to
            make is still made (the Lincoln question keeps its call).
        things_to_their_kind: A call of a tool that looks nothing up by name, which the
            question does not ask for, with a text value that names a thing of a lookup's
            kind or is a phrase of the question, is that lookup's call (``named_kinds``):
            the small model asked ``tide_times(port="Wexcombe Bus Garage")``,
            ``convert_currency(from_currency="Kelderby Monastery")`` and
            ``count_vowels`` of the whole question beside the lookups those names are for.
        word_families: One more call's text value is said by the conversation when its
            words are said in another form of their family — the same first seven letters or
            more, at least four fifths of the shorter word: ``specialization="Cardiology"``
            for "a cardiologist in Chicago", which was thrown away as a value nobody gave.
        values_asked_before: After results, one more call of a tool this turn has not
            called, whose text values the turn's calls already took (answered or refused),
            is made only when the question asks for that tool
            (:meth:`~toolkit.local.decision.turn.CallJudge.asks_another_tool`, as a first
            call is): after a pool's record named its soap works, the small model wrote
            ``count_letters("马洛游泳池")`` beside the soap works' lookup, and the letter count
            "5" then became the next step's pool name.
        named_members: The question's list may name an ``enum`` parameter's members in
            words of their own — "for the last six months, the last year, and the last five
            years" for ``["six_months", "year", "five_years"]``, "(AA), … (Aa), and …
            (aa)" — and asks for the call again with each (``listed_items``). Members are
            listed when joined by a comma, "and", "or", "then" or "both" with no number or
            word in capitals between them: "stage 7 in easy mode and stage 3 in hard mode"
            pairs each mode with its stage. On BFCL's ground truth (every case of five
            categories but the 120 of a held-out split, each case's own calls taken as the
            model's) it names 26 further members, all right; without the rule on what lies
            between them, 45, one wrong.
        glossed_fields: The field a Chinese question asks of a record is first read through
            its words' English glosses (CC-CEDICT): 动物 "animal" of "一共养了多少只动物？"
            names "640 animals" of "640 animals of 112 species", where the model's pick took
            the species; the model picks (``picked_fields``) when no one label is said.
        plan_unnamed_lookups: A question of arithmetic is planned (``plan_arithmetic``) with
            tools of other kinds offered too, before any call, when it names neither what
            another tool is about nor a thing of a lookup's kind: "一块大理石板重 1350 千克，
            一辆卡车装了 6 块…" with a quarry's lookup offered, which the small model answered
            "1350 千克" without a call.
        example_shapes: Write a first call again when a text value lacks the shape every
            quoted example of its parameter's description shows — a place and its region,
            "Pleasanton" where the examples read 'Berkeley, CA' and 'New York, NY' — with the
            value held to that shape
            (:func:`~toolkit.local.decision.examples.unshaped_values`).
        described_kinds: A text value of a call is not mentioned by the words that only say
            its kind, which its parameter's name, its parameter's description or its tool's
            description say outside their examples: "Greyfell Hut", a hut's name copied
            from a description's example, is not said by "the hut at the top"
            (:func:`~toolkit.local.decision.grounding.kind_words`). Off, only the parameter's
            name says a kind.
        leave_out_guesses: Leave out of a call the model chose to make its optional
            arguments whose values the conversation never gave (``start_year=1789`` asked
            about Lincoln's presidency): the tool's default applies instead of a guess.
            Measured on the saved calls of the BFCL dev split before it was built: it changes
            calls of 42 of its 300 cases, turns 3 failures into passes and no pass into a
            failure.
        unasked_choices: Count among an optional argument's guesses, to be left out with
            :attr:`leave_out_guesses`, a choice its schema offers (``enum``) that is not the
            default and that the conversation never mentions (``unit="seconds"`` for
            "check whether docker is installed"). On the BFCL dev cases' optional choices, 70
            of the 79 unmentioned ones accept the argument left out.
        unasked_flags: Count among an optional argument's guesses, to be left out with
            :attr:`leave_out_guesses`, a yes-or-no turned from the default its schema states
            when the conversation names none of the flag's words (``no_redirect=true`` for
            "Search for 'trending items' on the duck duck go."; kept:
            ``private_visibility=true`` for "I prefer to keep the transaction private").
        unread_text_calls: Before any result, when every call the model would make was
            rejected and its text answer says nothing — the call written out in code
            ("Answer: <function-name>get_service_id</function-name>") or the question copied
            — the likeliest rejected call is made instead, when it states no number nobody
            gave and a text value of it holds a word of the question
            (``execute("taskkill /F /IM firefox.exe")`` for "close firefox using taskkill").
        value_forms: Write a call's values in the forms their parameters take
            (:mod:`~toolkit.local.decision.forms`): a percentage the conversation states is a
            fraction in a ``number`` parameter unless its description says percent
            ("an annual interest rate of 5%" is ``interest_rate=0.05``), and a text value
            loses the words at its end that another argument holds or that are the
            parameter's one-word name, when the text writes them in lower case or as a
            number ("Criminal Law Amendment Act of 2013" beside ``amendment_year=2013``,
            "Santa Clara county" for ``county``).
        values_keep_places: One more call of a tool that only takes values its earlier calls
            of the answer took, one of them under another parameter, is not made
            (:func:`~toolkit.local.decision.grounding.moves_values`):
            ``clock_angle(hours=8, minutes=11)`` after ``(8, 20)`` and ``(11, 50)``. Crossed
            lists keep each value in its place, and a chain's next leg brings a new value.
        stated_places: One more call of a tool that only takes values its earlier calls took
            is made when it moves a value to another parameter and the conversation states
            that value more often than it has places already
            (:func:`~toolkit.local.decision.grounding.placed_anew`): the way back of a journey,
            ``(Miami, New York)`` after ``(New York, Los Angeles)`` and ``(Los Angeles,
            Miami)`` when the question names New York twice.
        answer_comparisons: After results, when the question asks which value is larger
            (not by how much) and the results order the values
            (:func:`~toolkit.local.decision.comparison.comparison`), the answer is written,
            with no arithmetic step: the small model subtracts the records' other quantity.
        declined_calls: Before any result, a question that tells the model not to look
            anything up ("Quick one, nothing to look up: …", "不用查") is answered in text
            (:func:`~toolkit.local.decision.mentions.declines_tools`): the user's own word.
        comparisons_looked_up: Before any result, a text answer that says which value is
            larger, when the question asks it and the model would name an offered tool with
            at least :attr:`name_threshold`, gives way to a sound call: the small model
            picks one of the names from recall ("老堰的工人最少" beside ``get_paper_mill``).
        first_listed_item: A first call rejected for a text value that joins items the
            question lists, as one (``get_wind_farm("灰谷和盐沼岭风电场")``), is written with the
            first item in its place; the other items follow as the question's lists
            (:attr:`listed_items`).
        names_apart: A turn's first call that looks up several names the question lists as
            one value is written with the first name; the others follow as the question's
            lists: ``archery_range_lookup("Hartsell, Ebbington and Roscarrow")`` was refused,
            then retried as "Ebbington and Roscarrow".
        optional_news: One more call whose values repeat an earlier call's is given up only
            once every argument is written, not once the required ones are: an optional value
            may still ask something new (``field_strength(2, 1, medium="air")`` after
            ``field_strength(2, 1)``, "at 1 meter in a vacuum, and at 1 meter in air").
        answer_when_combined: After results, answer instead of calling when the last step
            combined earlier results and left no number of the turn unused while the model
            would name a tool this turn already called
            (:func:`~toolkit.local.decision.turn.results_combined`): the small model asks
            for the call it just made again (``add(6, 5)`` once it answered 11), and each
            such attempt is generated before it can be refused.
        retry_failures: After results, a call of the last step that failed at a text value
            is written once more with its strings confined to the other forms of its values
            (:func:`~toolkit.local.decision.retries.forms_of`: without the quotes or brackets
            around it, the last word's number changed, an item of a list written as one
            value, a phrase of the conversation that is a slip of it by :attr:`slip_ratio`, a
            key the refusal lists that holds its words: "Senior Care" for "Senior"),
            and made when it is no repeat: ``get_stock("widgets")`` after
            ``get_stock("widget")`` failed, asked about "widgets"; a title without the 《》 it
            was quoted in. A tool that fails at the new form too is not tried again. When
            the refusal lists keys that the user's own words name
            (:func:`~toolkit.local.decision.retries.named_keys`), only those are tried:
            "family suite" for ``get_room_rate("家庭 suites")``, asked about "Family Suites".
        resume_failed_steps: After results, a call that failed at a text value that a later
            call of another tool took and answered with a record is made again with the
            record's value labelled for its parameter
            (:func:`~toolkit.local.decision.chains.failed_step_to_resume`:
            ``get_designer_hometown("周岚")`` after ``get_designer_hometown("竹简")`` failed
            and ``get_board_game("竹简")`` said "designer: 周岚") — or with the name of an
            entity of the failed tool's kind that the record gives (one its refusal listed as
            known, or a name in capitals ending with the tool's word: ``get_lighthouse("Gannet
            Rock Lighthouse")`` after ``get_ferry`` said "lands beside Gannet Rock
            Lighthouse", :func:`~toolkit.local.decision.chains.kind_named`), whatever the
            model would write next: the small model asks a chain's last step first.
        english_reading: A question written in Chinese is read in English (the model's own
            translation, one line, asked beside the conversation once per question) where the
            labels of English records are matched: the number a question names by its label
            (``asked_fields``), the quantity a comparison orders. "哪家的工人最少？" names
            no label of "41 workers"; "Which has the fewest workers?" does.
        picked_fields: A question written in Chinese over records written in English gets the
            number of each record it asks for from the label the model picks among the
            record's own (its probability of writing each label whole, asked beside the
            conversation, calibrated against a question that asks nothing:
            :mod:`~toolkit.local.decision.fields`), where the question's form says each
            record gives one — the values of each, their combination, their order — and
            before the English reading is matched: "分别有多少名队员？" is "crew" of "crew:
            28", which the reading "team members" did not name.
        field_pick_min: The share of the calibrated label scores a pick must have
            (``picked_fields``); chosen on the development records: at 0.75, 31 of 47 records
            of Chinese questions got the right field and 1 a wrong one (at 0.5, 33 and 8).
        listed_values: When the question asks for a value of each record and the model's
            answer, and its rewrite with those values as the only numbers it may state, still
            leave one out ("琥珀码头和桦木码头各有38名装卸工。" for 38 and 45), the answer
            lists each value after what its call asked about ("琥珀码头（38）、桦木码头（45）。").
        lone_links_followed: A Chinese record's one link (a value in Chinese under a label
            other than its name) not followed yet is the chain's next step when the question
            points past the record, though nothing of the question says the label or the
            name's end — to a tool the turn has not looked anything up in yet
            (:func:`~toolkit.local.decision.chains.named_next_step`): "清水弦乐坊的首席制琴师当年
            是在哪家琴坊学的手艺？" over the workshop's record naming its master luthier
            "托马斯·奎尔" had been answered with the workshop's founding year. A thing the
            question speaks of after "的" whose end the linked name shares
            ("鼠尾溪香草园的合作猎鹰中心" of "红隼岭猎鹰中心") is pointed at too.
        extras_judged: One more call of another tool that the question names, kept beside
            the first step's calls though it adds no value of the answer's, is judged as a
            first call is (:meth:`~toolkit.local.decision.turn.CallJudge.rejected`): beside
            ``split_evenly(2340, 18)`` for "Our mill has 2,340 sheets … How many bundles?",
            ``paper_mill("The Mill of China")`` had been kept because the question says
            "mill", though nobody gave "China".
        one_line_recitals: An answer that is two results or more copied out on one line, and
            nothing else but punctuation and numbers, is written again as a sentence, as
            results copied line by line are (``answer_in_sentences``): "Cloudstep Terrace:
            open to visitors 08:00–17:30, Misty Ridge Terrace: open to visitors 09:00–18:00,
            …" answered the visiting hours of three terraces. The rewrite leaves out the
            colon and space the results write after their names, not a time's colon.
        question_words_no_values: A call whose text value is a word that asks or points
            alone ("What", "which", "那家"), unless the question quotes it, is rejected as
            one with a value nobody gave: the small model wrote
            ``opening_hours(place="What")`` for "… What hours is that garden open?", and the
            refusal sent it through three tools.
        chain_end_fits_asked: In a question in Latin letters, a chain's step to the thing a
            record names is asked of the tool taking any place or thing by name (not a tool
            of people) whose own words the sentence that asks fits, rather than the tool of
            the thing's kind: "I'd like to visit whichever garden grows the plant fibre for
            Vellow Paper Mill. What hours is that garden open?" had gone from the mill's
            record to the herb gardens' record, and answered "open from 2001 to 2001".
        english_chains_asked: After a chain's last step in a question in Latin letters, the
            number the question asks for is the last record's whose label it says, the words
            of the label the chain led under aside
            (:meth:`~toolkit.local.decision.decoding._Decoder.chained_field`): named in the
            final-answer step and required of the answer. "In what year was the master luthier
            of Corvell Violin Workshop born?" had been answered with the workshop's founding
            year, though the luthier's record said ``"born": 1949``.
        asked_words_pick_tool: A name the question gives, of two or more it gives, looked up
            in a tool that takes one name is asked of the one such tool the question's other
            words fit (:func:`~toolkit.local.decision.fitting.fitting_tool`: its name or
            description alone says some of them); a question of one name may be a chain's,
            which asks of the thing that name leads to. "What are the visiting hours
            at Cloudstep Terrace, Jadefold Terrace and Misty Ridge Terrace?" had been asked of
            the terraces' record tool and the ferry timetable, beside
            ``terrace_visiting_hours``; "How many more crossings a day does the Heronsgate
            Ferry make …?" of the timetable, though only ``ferry_line_record`` tells
            crossings. Such a call is not moved to the tool of the name's kind either
            (``named_kinds``): "the opening hours of … Owlsgate Raptor Centre" stays with
            ``opening_hours``.
        named_kinds: A name looked up in a tool of another kind than the name states is
            asked of the tool of its kind, when both look things up by name alone
            (:mod:`~toolkit.local.decision.kinds`): ``get_quarry("奥斯特维克电车场")`` is
            ``get_tram_depot("奥斯特维克电车场")``, ``get_ferry_crossing("Kestwick Sawmill")``
            is ``get_sawmill("Kestwick Sawmill")``. Asked about a thing the named one links
            to, the small model looked the name up in the tool of the thing asked about, and
            the refusal sent it trying the question's fragments.
        refused_names_elsewhere: Beside lookups that answered, a name of the question that a
            lookup refused, whose words state no refusing tool's kind, is asked of a lookup
            not tried yet (:meth:`~toolkit.local.decision.turn.CallJudge.names_for_untried`):
            "The Brindlemere Oar Society holds its winter socials at a bowling alley" was
            asked of the bowling alleys' tool beside the alley named, and then answered.
        named_things_only: After results, every call of the turn answered, a lookup by name
            of a thing the question neither names nor points at ("那家酒厂", "that rink") is
            rejected: asked what two breweries brew together, the small model went on to
            look up the ice rinks their records name, then added the rinks' opening years.
        answer_when_found: After results, in a question in Latin letters that asks for no
            combination, the answer is due once the number the question asks for by its label
            is in exactly one record and every offered tool whose kind the question names has
            answered: a chain's two records in, the small model went on to look "Lock" up in
            an unrelated tool (:meth:`~toolkit.local.decision.decoding._Decoder.asked_found`).
        asked_texts: After results, in a question in Latin letters that asks for no
            combination and no order, the answer is due, and states them, once the last
            record of the turn gives words under the label the question says and no earlier
            record does: "Who's the head falconer at that place?" over the falconry centre's
            "head falconer: Tobias Venn" (:meth:`~toolkit.local.decision.decoding._Decoder.
            asked_words`); the small model had named the centre as its own head falconer.
        unfit_tools_aside: After results, when every call of the turn failed and the
            question, in Latin letters, shares no word with any offered tool's name or
            description, the answer is
            written as though no tool were offered: "What's the capital city of Japan?" was
            asked of ``get_mountain_hut("Japan")``, then answered "could not be found"
            (:func:`~toolkit.local.decision.turn.unfit_failures`).
        follow_named_entities: After one answered call, whose record names an entity of
            another offered tool's kind that the question asks about (its kind's word said,
            the entity itself not), that tool is asked about it
            (:func:`~toolkit.local.decision.chains.named_next_step`): the small model answered
            "how tall is that tower?" with the lighthouse's name from the ferry's record.
        refused_names_followed: After results, a lookup refused with the names its tool
            knows is asked again with the one of them that another tool's record gives, when
            the question points past its first thing to one of that tool's kind
            (:func:`~toolkit.local.decision.known.refused_kind_named`): "暮谷兰园温室里的计时钟
            是哪家钟表坊做的？这家钟表坊一年能造多少座钟？" — the clockmaker was asked about the
            question's words, refused with "Known: …, Pellwick Clocks (佩尔维克钟坊)", then the
            nursery's record gave "clock_supplier: 佩尔维克钟坊", and the small model answered
            with the refusal's list.
        each_part_stated: A question that asks several quantities one after another ("How
            many shades a week, and … how many crates does that fill?", "每个架子放几个？…
            总共多重？") has its answer state the result of each part: the final-answer step
            names the turn's last one-number results, as many as the parts, and an answer
            that leaves one out is written again stating it
            (:meth:`~toolkit.local.decision.decoding._Decoder.part_results`). The small
            model, named the last result alone, answered "一个架子上的奶酪总共是630公斤。"
            without the 70 a shelf.
        kind_lookups_used: After results, the names the question gives of a lookup's kind
            that the turn asked of another lookup only, whose kind the question does not
            say, are asked of their kind's lookup
            (:func:`~toolkit.local.decision.known.kind_lookups_skipped`): "灰岸盐场、白洼盐滩、
            马罗湾盐田这三处，哪一处每年的产盐量最少？" was asked of ``opening_hours`` for each
            and answered from the hours.
        linked_entities: Under ``follow_named_entities``, a record's one other name whose
            words state no offered kind ("barrel_supplier: Tamsett Barrel Yard") is followed
            too, when the question points past what it names: to the lookup not answered yet
            whose kind the question says, else the one the name's Chinese name states, else
            the one the model would most likely name
            (:func:`~toolkit.local.decision.chains.linked_names`). Studied runs answered
            "那家桶厂一个月能做多少个桶？" from the candle works' own record.
        record_fields: After results, a call that combines two fields of one record while
            records of the same tool wait is written with the first field's value of each
            record (:func:`~toolkit.local.decision.chains.fields_in_place`); one that only
            combines fields of one record, the only one of its tool, with no number of the
            question is not made (:func:`~toolkit.local.decision.chains.
            fields_of_one_record`); and an extra
            call that combines the records' values under another label than the answer's
            earlier call did is not made (:func:`~toolkit.local.decision.chains.other_field`).
        one_record_extras: The call that only combines fields of one record
            (``record_fields``) is not made as one more call beside the step's first either:
            ``multiply_values(38, 140)``, a workshop's basket price times its baskets, came
            beside the lookup of its customer, and the answer gave the product.
        listed_items: When the model has nothing new to write as one more call, the calls the
            question's lists still ask for are made
            (:func:`~toolkit.local.decision.coordination.listed_calls`): the small model,
            asked for a wire's resistance "with resistivity of copper and aluminum", writes
            the copper call again where the aluminum one belongs. Measured on BFCL's ground
            truth before it was built (the first call of each case taken as the model's):
            it writes every call of 20 of the first 50 ``parallel`` cases with no wrong one,
            and a wrong call in 2 of 260 ``simple_python`` cases and none of 110
            ``multiple`` and ``live_simple`` cases.
        plan_arithmetic: When every offered tool is arithmetic (two-number operations, or
            one that evaluates an expression) and the question states two numbers or more,
            the model writes the question as one expression over its numbers, and the
            calls are that expression's operations, innermost first
            (:mod:`toolkit.local.decision.arithmetic`): the small model cannot break a word
            problem into calls ("我有200元，买了3张电影票，每张45元…" answered in prose, or
            ``subtract(200, 3)``), but it writes ``(200 - 3 * 45) / 4``. Two instructions
            are asked; a reading that leaves out a number the question states, uses one twice,
            or breaks the order of a step-by-step question is no plan, and two plans that
            disagree are not followed
            (:func:`~toolkit.local.decision.arithmetic.agreed_plan`).
        units_regrouped: A plan of a word problem that multiplies a sum or difference of two
            numbers by a third, where only one of the two goes with the third (a count of
            what it is a rate per, or a rate per what it counts), multiplies that one alone
            and adds or takes the other after (:func:`~toolkit.local.decision.units.
            regrouped`): "每桶蜜酒能装 28 瓶，酿了 15 桶，又调来 64 瓶" had been planned
            ``(15 + 64) * 28``, now ``15 * 28 + 64``.
        combine_results: Once this turn's lookups have answered (each with a number, none
            with an error) and the model would call an arithmetic tool offered beside them,
            the model writes the question as one expression over the numbers of the question
            and of the results, and the calls are that expression's operations
            (:mod:`toolkit.local.decision.combining`): left to its own call, the small model
            writes on after the sum with a number it already used
            (``calculate("(6 + 12) * 22")`` for an average of 6, 12 and 22). The expression's
            grammar takes one number from each result (not the others it states beside the
            value), every number the question states that the lookups did not take, and the
            count of the results only when the question asks for an average, and the
            expression must take each of them
            (:func:`~toolkit.local.decision.combining.read_combination`). On 36 development
            conversations (the dev set's, a studied held-out set's and nine more), 31 read
            right (one over a wrong lookup), 4 wrong (a difference read as a sum, a record's
            other value, a price paired with the other weight, a number used twice) and 1
            made no plan.
        combine_when_asked: The same plan is read when the model would answer in text once
            the lookups have answered but the question asks for their total, average,
            difference or ratio (:func:`~toolkit.local.decision.asking.asks_combination`:
            "in total", "how much deeper", "一共", "比……大多少"): the small model answers
            "How many kilograms is that in total?" with the first lookup's value.
        each_stays_apart: Once the lookups have answered, an arithmetic call that combines
            only their values (no number of the question) is not made when the question asks
            for each value on its own and for no total
            (:func:`~toolkit.local.decision.asking.asks_each`: "各有多少", "分别",
            "each", "respectively"): the answer states the values. The small model added
            the hives of three apiaries asked "各有多少个蜂箱？".
        state_result: When the result that answers the question is known (a plan's last
            step) and the final answer does not state it, the answer is written again under
            a grammar that must state it before any other number (the small model, shown the
            chain's results and told which is the answer, still copied the question out
            with one word added).
        asked_fields: When this turn's one answered call gave a record of several numbers and
            the question names one of them by its label's words ("how many galleries" of
            "founded 1934, 27 galleries, 94,500 visitors per year",
            :func:`~toolkit.local.decision.records.asked_number`), a final answer that leaves
            that number out is written again stating it, as for ``state_result``: the small
            model answered with the visitors.
        values_without_arithmetic: A question that asks for no arithmetic
            (:func:`~toolkit.local.decision.asking.asks_arithmetic`) over several records of
            one tool asks for each record's value, as "each" does: the answer is due once
            every record gives the value its label names. "Could you check the monthly bottle
            output of Amberwick Distillery and of Saffir & Dune?" had been summed (1720).
        answer_in_sentences: A final answer of two lines or more, each a result all but whole
            ("灰林火山监测站：海拔1286米，……" twice, for "分别是多少米？"), is written again without
            a line break or the separator the results write after their names, so that it
            says the values in a sentence.
        named_tool_calls: Before any tool result, a text answer that names an offered tool
            (:func:`~toolkit.local.decision.mentions.named_tools`) gives way to a call of the
            tools, made only when it is sound — no repeat, every value one the conversation
            gave — and otherwise the text stands: the small model describes the call it
            should make ("Mark the function as "ThinQ_Connect" and call it …"). A text that
            names one in code (a fenced block, markup tags, a JSON string after a bracket:
            :func:`~toolkit.local.decision.mentions.writes_out`) is decoded as calls, as a
            call written out in JSON is.
        stated_numbers_fallback: Before any result, when every call the model would make
            was rejected for values nobody gave, the likeliest one is still made when it
            uses a value the user gave or the question names its tool — but not when, its
            optional guesses left out, it holds a number nobody stated in digits or in words
            (:func:`~toolkit.local.decision.numbers.numbers_for_calls`: "three hours",
            "$1.2 million"); then the answer is text. ``calculate_time(distance=1000,
            speed=500)`` asked "What's the time right now?" is such a call. On the BFCL dev
            splits, 8 of the 17 irrelevance failures became right text answers; of the
            right calls, 8 held such numbers — 7 stated in words, scales, scientific
            notation, "next week" or "from rest", now read — and one, guesses inside the
            object it takes, is made once they are left out
            (:func:`~toolkit.local.decision.grounding.without_unfounded`).
        off_question_failures_plain: When every result of the turn failed and no failure
            shares a word with the question once the refused value is left out
            (:func:`~toolkit.local.decision.turn.failed_off_the_question`: "《论语》主要记录的是
            哪位古代思想家…？" asked of a sawmill lookup), the tools had nothing to do with the
            question: it is answered as though no tool were offered, not with what went
            wrong ("无法得到答案。").
        refusals_looked_up: A text answer that opens by declining ("I'm sorry, but I can't
            assist with that.": :func:`~toolkit.local.decision.mentions.refuses`) is the
            model's word that it cannot answer from what it knows. Before any result, once
            per request, a sound call is looked for then (with
            :attr:`refusal_name_threshold`); and when every call was rejected and the text
            answer declines, the likeliest rejected call is made as for a text that says
            nothing (:attr:`unread_text_calls`). Either way the text stands when no call is.
        invented_texts_fallback: A call whose required text (or list of texts) shares no
            word with the conversation in any form
            (:func:`~toolkit.local.decision.grounding.invented_texts`: ``location="Los
            Angeles, CA"`` for "an IMAX show at 3rd Street Cinema", ``password="password"``)
            is the model's invention: it is no fallback once rejected, and a list of such
            texts is a fault of the call as an unmentioned text is. The answer is then text
            (the value is the user's to give). In saved BFCL dev runs, 13 calls held such
            texts: 11 were wrong (9 where no call fits), 2 right ("steep" for a hill slope,
            "english" for a review's language: knowledge, not the user's words).
        numbered_answers_no_echo: A final answer that states a number the question does not
            is no copy of the question, however alike their words: "蕨岭羊驼徒步比卵石羊驼徒步多
            养了14头羊驼。" answers "…多养了几头羊驼？" in its words. Written again avoiding the
            question's opening, it had come out as "蕨岭羊.camel徒步…".
        records_pointed_past: A chain's next step is taken although the record answered has
            the number the question asks by its label, when the sentence that asks points at
            another kind of thing the record names (:func:`~toolkit.local.decision.chains.
            points_at_other`: "sells its kelp to a mushroom cellar — what year was that cellar
            founded?" after the kelp farm's record, which has a founding year of its own; the
            small model answered with the farm's).
        asked_numbers_in_calls: When the model chose an arithmetic call over the turn's
            lookups and the readings of the question agree on no plan, each number of the call
            that a record states, where that record gives another to the arithmetic (the one
            under the label the question names), is moved to it
            (:func:`~toolkit.local.decision.combining.asked_in_place`): "the whole staff of A
            and everyone working at B … how many people would be at the table?" had been
            ``add(1884, 1911)``, the records' founding years.
        differences_kept: A plan read from the model's expression over the lookups that
            takes nothing away is no plan when the question says it asks by how much the
            values differ (:func:`~toolkit.local.decision.asking.says_difference`; not
            "Between the two of them, how many…?", a total): the model's own
            call stands ("…比卵石羊驼徒步多养了几头羊驼？" had its ``difference(29, 15)``
            replaced by the plan ``29 + 15``).
        phrases_to_names: Before any result, a call refused for sending a Chinese phrase
            as a name (the question whole: ``canal_details("费林顿航道上的驳船最多能装多少
            吨？")``) is written again with the name of the place the phrase begins with
            (:func:`~toolkit.local.decision.kinds.heads_of`: "费林顿航道"), when that call is
            sound; so is a name half put into Latin letters ("Safira沙丘香水厂"), as the
            question writes it ("萨菲尔沙丘香水厂"). The small model had answered "Answer:
            无法确定", or with a nursery it made up.
        places_named: A place parameter's value (``location``, ``city``…) that names no
            place — a key's spelling (``alpha_key``) or plain lower-case English words
            ("nonsense", "march": :func:`~toolkit.local.decision.places.unplaced_texts`) — is
            a fault of the call, and no fallback: ``get_current_weather(location="nonsense")``
            asked "this is nonsense". In saved BFCL dev runs, 7 calls held such values: 5
            wrong (4 where no call fits), 2 right ("123 main street" has digits, "all" stands
            for places: both kept).
        web_searched: Before results, a question that asks for information, with one offered
            tool that searches the web (:mod:`~toolkit.local.decision.searching`), tries that
            tool's call even when the model prefers text, and keeps it when it is sound: asked
            "what is Imjin war" beside a web search, the small model answered from recall with
            a fact it made up.
        held_keys_each: A refused value holding two or more of the keys its refusal lists
            whole (:func:`~toolkit.local.decision.retries.keys_held`) is asked again as each of
            them, in one step: ``dairy_record("Oatridge Dairy and of Brackenford Dairy all rode
            in a single coach, ")`` → ``dairy_record("Oatridge Dairy")`` and
            ``dairy_record("Brackenford Dairy")``. Asked again once, the small model took the
            first and answered without the second.
        label_results: Show each tool result to the model prefixed by the call it answers
            (``add(x=6, y=5) = 11``), a departure from the stock template that keeps a small
            model from answering with the wrong result.
    """

    text_threshold: float = 0.3
    name_threshold: float = 0.5
    refusal_name_threshold: float = 0.5
    name_floor: float = 1e-3
    alternative_threshold: float = 0.01
    waiting_alternative_threshold: float = 0.0
    foreign_call_threshold: float = 0.1
    sure_call_threshold: float = 0.9
    call_intent_threshold: float = 0.05
    call_intent_name_floor: float = 0.1
    first_clause_threshold: float = 0.9
    slip_ratio: float = 0.85
    word_share: float = 0.5
    asked_share: float = 0.5
    field_pick_min: float = 0.75
    min_extra_call_tokens: int = 9
    max_calls: int = 8
    max_same_values: int = 16
    max_list_items: int = 16
    nudge: str | None = DEFAULT_NUDGE
    drop_repeated_calls: bool = True
    forbidden_in_text: tuple[str, ...] = ('"name', '"arguments', '"parameters', "'name'")
    label_results: bool = True
    retry_failures: bool = True
    resume_failed_steps: bool = True
    record_fields: bool = True
    one_record_extras: bool = True
    listed_items: bool = True
    plan_arithmetic: bool = True
    units_regrouped: bool = True
    combine_results: bool = True
    combine_when_asked: bool = True
    each_stays_apart: bool = True
    state_result: bool = True
    asked_fields: bool = True
    answer_when_found: bool = True
    asked_texts: bool = True
    follow_named_entities: bool = True
    linked_entities: bool = True
    refused_names_followed: bool = True
    each_part_stated: bool = True
    kind_lookups_used: bool = True
    english_reading: bool = True
    picked_fields: bool = True
    listed_values: bool = True
    asked_words_pick_tool: bool = True
    english_chains_asked: bool = True
    chain_end_fits_asked: bool = True
    question_words_no_values: bool = True
    one_line_recitals: bool = True
    extras_judged: bool = True
    lone_links_followed: bool = True
    named_kinds: bool = True
    refused_names_elsewhere: bool = True
    named_things_only: bool = True
    answer_in_sentences: bool = True
    named_tool_calls: bool = True
    stated_numbers_fallback: bool = True
    invented_texts_fallback: bool = True
    own_words: bool = True
    described_kinds: bool = True
    example_shapes: bool = True
    plan_among_lookups: bool = True
    plan_unnamed_lookups: bool = True
    glossed_fields: bool = True
    difference_of_order: bool = True
    difference_before_plan: bool = True
    misread_lookups_aside: bool = True
    name_reached: bool = True
    rates_divided: bool = True
    sums_end_turns: bool = True
    working_shown: bool = True
    listed_names_looked_up: bool = True
    conditions_unasked: bool = True
    siblings_asked: bool = True
    lists_as_written: bool = True
    stated_optionals: bool = True
    stated_choices: bool = True
    stated_spellings: bool = True
    stated_flags: bool = True
    refusals_looked_up: bool = True
    off_question_failures_plain: bool = True
    values_without_arithmetic: bool = True
    numbered_answers_no_echo: bool = True
    records_pointed_past: bool = True
    asked_numbers_in_calls: bool = True
    differences_kept: bool = True
    phrases_to_names: bool = True
    places_named: bool = True
    held_keys_each: bool = True
    web_searched: bool = True
    unasked_flags: bool = True
    judged_as_sent: bool = True
    hemisphere_signs: bool = True
    described_formats: bool = True
    tool_talk_answered: bool = True
    possessives_bare: bool = True
    records_scaled: bool = True
    ampersand_names: bool = True
    named_values_looked_up: bool = True
    retry_alone: bool = True
    places_in_phrases: bool = True
    chains_lead_on: bool = True
    resumed_steps_kept: bool = True
    refusals_not_names: bool = True
    sums_added_only: bool = True
    named_kinds_compared: bool = True
    named_members: bool = True
    values_asked_before: bool = True
    word_families: bool = True
    things_to_their_kind: bool = True
    known_numbers_kept: bool = False
    known_numbers_stand: bool = True
    worded_answers: bool = True
    named_lookups: bool = True
    named_things_first: bool = True
    names_as_written: bool = True
    numbers_as_often_as_stated: bool = True
    parameter_words_aside: bool = True
    calls_in_their_parts: bool = True
    parts_each_called: bool = True
    offered_numbers: bool = True
    counted_numbers: bool = True
    differences_when_asked: bool = True
    question_named_tools: bool = True
    preferred_named_calls: bool = True
    rerouted_failures: bool = True
    renamed_failures: bool = True
    leave_out_guesses: bool = True
    value_forms: bool = True
    unread_text_calls: bool = True
    unasked_choices: bool = True
    values_keep_places: bool = True
    stated_places: bool = True
    optional_news: bool = True
    first_listed_item: bool = True
    names_apart: bool = True
    answer_comparisons: bool = True
    comparisons_looked_up: bool = True
    declined_calls: bool = True
    unfit_tools_aside: bool = True
    user_words: bool = True
    answer_step: bool = True
    answer_when_combined: bool = True
    compare_results: bool = True
    grounded_numbers: bool = True

    def __post_init__(self) -> None:
        for name in (*_PROBABILITIES, "word_share", "asked_share"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be within [0, 1], got {value}.")
        for name in ("max_calls", "min_extra_call_tokens", "max_same_values", "max_list_items"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}.")
