"""Probes for task offfield76 (issue #12 off-topic): questions from outside the field that use
the field's words (a transformer on a power pole, a model train, a fashion model, an arcade
token, attention in class, an oil pipeline, a Discord bot's role or rate limit) get no card;
the same words asked in the ML sense, in everyday settings or everyday words, keep theirs.
offfield76_probes.tsv says when and how they were written (bench/results/semantic.md,
"offfield76")."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # everyday senses carded on main
    "what is a transformer on a power pole",  # Transformers (the name written)
    "what does lawful good alignment mean in dungeons and dragons",  # Alignment
    "hey all, weird one. ever since the storm last week there's a loud hum at night and my "
    "neighbour says it comes from the grey box up on the pole. what is a transformer? the one on "
    "the pole outside my house buzzes constantly and i can't sleep",  # Transformers (long75)
    "how do neurons in the brain pass signals to each other",  # Neuron
    "how do i let my bot read message content",  # Prompt Injection
    # the field's sense with no card on main (offered, or nothing)
    "what temperature should i use for creative writing with an llm",
    "my training loss is stuck and won't go down",
    "we use gpt-4o to write product descriptions for our little shop. they all sound the same "
    "and a bit boring. what temperature should i set so the wording varies more?",
    "our support bot told a customer we ship free to canada, which we don't, and nothing in our "
    "docs says so. why does the model hallucinate like this and how do we catch it?",
    "trained a small gpt on shakespeare overnight and the power went out at 3am. how often should "
    "i save a checkpoint during training so i don't lose hours again?",
    "cooking blog here: i use an llm to write recipes, and the same prompt gives different "
    "recipes every time. how do i set a seed so the model's output is the same?",
}
PROBES = ProbeFile("offfield76_probes.tsv", STILL_FAILING)

test_an_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_an_everyday_sense_in_a_chat_message_gets_no_card = PROBES.test("everydaylong", expect=no_card)
test_a_neighbouring_field_s_sense_gets_no_card = PROBES.test("neighbour", expect=no_card)
test_a_discord_bot_question_gets_no_card = PROBES.test("discordbot", expect=no_card)
test_the_field_s_sense_keeps_its_card = PROBES.test("field", expect=the_asked_card)
test_the_field_s_sense_in_an_everyday_setting_keeps_its_card = PROBES.test(
    "fieldlong", expect=the_asked_card
)
test_the_field_s_sense_in_everyday_words_keeps_its_card = PROBES.test(
    "fieldplain", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted(
    {
        "everyday": 35,
        "everydaylong": 12,
        "neighbour": 12,
        "discordbot": 18,
        "field": 26,
        "fieldlong": 7,
        "fieldplain": 4,
    }
)
