"""Probes for task long74: long chat messages (47-63 words) in voices long73 did not use (a
teacher, a parent, a nurse, a journalist, a non-native speaker ...). 10 "asked" write the asked
entry's name IN the asking clause with chat around it ("what is a kv cache exactly, ..."): its
card must stay; 15 "setting" write another entry's name only in a clause that asks nothing and
describe the meant entry elsewhere. long74_probes.tsv was written from the entry ids and general
knowledge before any search run on the branch or reading data/ or the code. On main d417d84e:
7 of 10 asked, 5 of 15 setting carded, no wrong card. With `SearchIndex._voting_clauses`'s vote
for a text whose names stand only in clauses asking nothing (each clause without its names):
7 of 10, 6 of 15 (+ autoregressive generation), no wrong card (bench/results/semantic.md
"long74")."""

from __future__ import annotations

from bot.glossary.keys import normalize
from bot.search import SearchIndex
from bot.search.fusion import CLAUSED_CHARS
from bot.search.index import MAX_QUERY
from bot.search.query import clauses_asking, clauses_of

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. All but two offer the asked entry in the first three, most
# first. The three "asked" ones that failed ("what exactly is perplexity?" in 50 words of chat: no
# card for a name asked about in so long a text) open their card since long75's
# `SearchIndex._asked_outright_carded`.
STILL_FAILING = {
    # red-teaming (setting)
    "i'm a journalist covering a lab that publishes its weights on the hugging face hub. "
    "their press person said that before release they pay outside people to attack the "
    "model for weeks, trying to get it to say harmful things or leak secrets, and then they"
    " patch what they find. what's that practice called in the field",
    # softmax (setting)
    "i teach secondary school maths and we did a unit on python this term. a student asked "
    "how the chatbot decides which word comes next and i said it picks from a list of "
    "likely words, but she asked how it turns the raw scores into chances that add up to "
    "one. what's the function that does that",
    # latent-diffusion (setting)
    "i play a lot of games on my amd card with rocm drivers, off topic for this server i "
    "know. but my friend says image generators start from pure noise and clean it up bit by"
    " bit, and the newer fast ones do it in a smaller squeezed space instead of on the full"
    " pixels. what's that squeezed-space kind called",
    # dpo (setting)
    "retired engineer here, still tinker with numpy in the evenings. reading about these "
    "chat models, i understand they are trained on text once, but then there is apparently "
    "a later step where people pick the better of two answers and the model is tuned "
    "towards the preferred one directly, without any separate scoring model. what is that "
    "method called",
    # service-level-objective (setting)
    "our vendor hosts everything with docker, i don't touch that side. what i need for my "
    "slide is the term for the promise we make customers, like ninety nine point nine "
    "percent of replies come back within two seconds each month, and if we miss it we owe "
    "them credits. what's that target called",
    # chain-of-thought (setting; carded while the vote left the named clause out whole)
    "in my company we make the chatbot with llama and it answer good. but my colleague say "
    "it is better when the model first write the steps of thinking one by one before it "
    "give the final answer, for the maths questions especially. how do you call this "
    "technique please",
    # knowledge-distillation (setting)
    "heard on a podcast that they moved the whole thing onto tpu pods, fine, whatever. the "
    "part that stuck with me: a small student model learns by copying the soft answers of a"
    " big teacher model rather than the plain labels, and ends up nearly as good at a "
    "fraction of the size. what is that called",
    # compute-optimal-scaling (setting)
    "our lab trains everything with adamw and a cosine schedule, standard stuff. the "
    "question is about size: there's a result that for a fixed compute budget you should "
    "grow the model and the amount of training data together, roughly twenty tokens per "
    "parameter, instead of just making the model huge. what's that called",
    # structured-outputs (setting)
    "i'm a designer, not technical. our app reaches the model through an llm gateway the "
    "backend team set up. what i'm curious about: when i ask it for a product listing, how "
    "do they force the reply to always be valid data with exactly the fields we expect, "
    "never free text. what is that feature called",
    # high-bandwidth-memory (setting)
    "we bought a couple of servers with nvidia cards and installed cuda, all good. then "
    "someone mentioned that the memory chips stacked right next to the processor are what "
    "make these cards expensive and fast, way wider than normal ram. what is that kind of "
    "memory called",
}
PROBES = ProbeFile("long74_probes.tsv", STILL_FAILING)

test_a_long_message_asking_about_a_name_keeps_its_card = PROBES.test("asked", expect=the_asked_card)
test_a_long_message_naming_another_entry_in_passing_gets_its_card = PROBES.test(
    "setting", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted({"asked": 10, "setting": 15})


# The vote's clauses (`SearchIndex._voting_clauses`): a long message writing a name only in
# clauses that ask nothing is read by its clauses, each without the names; one asking about the
# name is not read by its clauses.
SETTING = (
    "we switched our support bot to vllm last month and it has been fine, the team is happy. "
    "the thing i mean is when the server slots new requests in as soon as an old one finishes, "
    "one by one, instead of waiting for a whole group, so the cards never sit idle. what is "
    "that called"
)
ASKED = (
    "what is a kv cache? we kept asking because the answers in the thread went round in "
    "circles, and nobody could say it plainly, and the docs assume you already know it, and "
    "the video we found was two hours long, and my lead is away until monday, so here we are"
)


def test_a_clause_asks_where_it_ends_with_a_question_mark_or_opens_as_a_question() -> None:
    assert clauses_asking("we serve with vllm on two cards. what is a kv cache? thanks") == [
        ("we serve with vllm on two cards", False),
        ("what is a kv cache", True),
        ("thanks", False),
    ]
    assert clauses_asking("our lab uses adamw, how do you call this technique") == [
        ("our lab uses adamw", False),
        ("how do you call this technique", True),
    ]


def _voting(index: SearchIndex, text: str) -> list[str]:
    normalized = normalize(text)
    written = [(found.entry, 0) for found in index._names_in(normalized)]
    return index._voting_clauses(text, normalized, written, index._names_in)


def test_a_name_written_only_in_passing_is_left_out_of_its_clause_s_vote(
    bundled_index: SearchIndex,
) -> None:
    assert len(normalize(SETTING)) >= CLAUSED_CHARS
    clauses = clauses_of(SETTING[:MAX_QUERY])
    assert clauses[0] == "we switched our support bot to vllm last month and it has been fine"
    assert _voting(bundled_index, SETTING) == [
        "we switched our support bot to last month and it has been fine",
        *clauses[1:],
    ]


def test_a_name_in_the_asking_clause_is_its_subject_no_vote(bundled_index: SearchIndex) -> None:
    assert len(normalize(ASKED)) >= CLAUSED_CHARS
    assert _voting(bundled_index, ASKED) == []
    result = bundled_index.search(ASKED)
    assert result.entry is not None, result
    assert result.entry.id == "kv-cache", result
