"""Probes for chat preambles (task preamble67, issue #12): a greeting, "so i was reading about
X", "honestly", "quick one" or a context clause before a question. Where the question names an
entry, its card, not the preamble's name nor a description's guess; where the question says
nothing of its own ("... can someone explain it?"), the preamble's name is what is asked; an
off-topic preamble and question get no card. preamble67_probes.tsv was written from titles.txt
and general knowledge before reading the search code, the entries or any slice's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that still fail on this branch: strict expected failures, so one that starts passing
# fails the suite and is moved out of here.
STILL_FAILING = {
    # the description stage and the meaning read "what attention heads do" as Multi-Head
    # Attention beside the scene's transformers: both offered, no card (a wrong card on main)
    "hey so I was reading about transformers and honestly, can someone explain what attention heads do? 🤔",
    # "what does layer norm actually do" asks what it does: the subject rules find no name in
    # the asked clause; Transformer Block offered first
    "so I was reading about transformers and what does layer norm actually do",
    # "what is it" points back at the nearest name, QLoRA; both offered
    "our team uses lora and we keep hearing about qlora, what is it",
    # no question word after "and": "can someone explain sentencepiece" is not split off, so
    # the scene's Tokenization is carded
    "was reading about tokenization and can someone explain sentencepiece",
    # "was reading ..." opens with an auxiliary, so the whole text reads as one question and
    # the scene's Hallucination is carded
    "was reading about hallucination and what is hallucination detection",
    # "what it is" / "explain it" point back at the scene's one name, which is offered only
    "been messing with lora all week, can someone explain what it is?",
    "I was reading about bm25 and honestly can someone explain it in simple terms?",
}
PROBES = ProbeFile("preamble67_probes.tsv", STILL_FAILING)

test_the_question_s_name_gets_its_card_after_a_preamble = PROBES.test(
    "narrower", expect=the_asked_card
)
test_the_preamble_s_name_is_asked_when_the_question_names_none = PROBES.test(
    "self", expect=the_asked_card
)
test_an_off_topic_preamble_and_question_get_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"narrower": 40, "self": 12, "offtopic": 9})
