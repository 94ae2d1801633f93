"""Probes for task desc68 (issue #12): an entry told without its names, by an everyday analogy
("like a librarian who ..."), by a scene or symptom ("my bot keeps ...") or at length as a chat
story (35-70 words), gets its card; the same shapes from neighbouring fields and everyday life
get none. desc68_probes.tsv was written from entry titles and general knowledge, before reading
the search code, the entries' text, data/asked-as or the tuning rows. The rule the task measured
(`fusion.words_agree`'s clear words, a23d5f3e: for a text that asks nothing, the words' first 8
points over their second and the meaning's first too at cosine 0.45, any meaning's lead) failed
the ship rule on held out and was reverted (bench/results/semantic.md "desc68"); desc68b's guarded
try (the field at 0.25, no question in a later clause either) failed it too and was reverted
("desc68b"): the tuning rows they carded stay below as strict expected failures."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. The reverted clear-words rule moved none of them. Causes (the meaning's first three, the words' first and lead; bench/results/semantic.md
# "desc68"):
# - the meaning does not read the analogy: its first is another entry or nothing reaches the
#   offer floor (librarian: Cross-Encoder 0.47; master chef: Scalable Oversight 0.32; rounding
#   prices: Token 0.39; dog and treat jar: SFT 0.38; house rules: Brussels Effect 0.39; bouncer:
#   System Prompt 0.69; warehouse note: Prompt Injection first but at 0.48 with no word lead;
#   friend's working: Process Reward Model 0.65 though the words give Chain-of-Thought 90;
#   reading notes: Continued Pretraining 0.52; student and answer key: Benchmark Contamination's
#   card at 0.61; fenced playground: Sandbox first at 0.49, the words on VLA models);
# - the meaning first on the right entry but under every bar, the text leaning away from the
#   field (< 0.2: triage nurse, restaurant kitchen, hiker in fog, taste test), or the words'
#   lead under 8 (the two writers 0.56, the switchboard 0.52 third);
# - scenes and long stories whose meaning puts a neighbour first: Continued Pretraining for the
#   forgetting context window, Rubric for the judging model, Latency and Guardrails a hair
#   apart (0.634 / 0.628, words' lead 7.1), Prompt Engineering over RAG, LLM Fundamentals over
#   RLHF, KTO over DPO, Prefill over AI Agents, Multi-Agent Systems over Human-in-the-Loop.
STILL_FAILING: set[str] = {
    "like a librarian who fetches the right pages before answering your question",
    "it's like a student who memorised the answer key instead of learning the subject, perfect on"
    " homework and lost on the exam",
    "like a master chef whispering tricks to an apprentice until the small cook turns out dishes"
    " almost as good as the master's",
    "like reading with a highlighter and marking which earlier words matter most for"
    " understanding the current one",
    "like rounding every price in the shop to whole dollars so the whole catalogue fits on a much"
    " smaller card",
    "like a hospital where a triage nurse sends each patient to just two of many specialists, so"
    " most doctors sit idle on any one case",
    "like a dog that learns to get treats by sitting next to the treat jar instead of actually"
    " doing the trick",
    "like a junior writer drafting the next few words quickly and the senior editor approving"
    " them all in one read",
    "like a restaurant kitchen that starts the next order the moment any plate leaves, instead of"
    " waiting for the whole table to finish",
    "like a hiker walking downhill in thick fog by feeling which way the ground slopes under their"
    " feet",
    "like house rules pinned on the kitchen wall that the waiter must follow before taking any"
    " order",
    "like a taste test where the judge gets two dishes side by side and only has to say which one"
    " is better",
    "like a fenced playground where the robot can smash whatever it likes without touching the"
    " real house",
    "like a bouncer at the club door checking what goes into the chatbot and what comes out of it",
    "like a note hidden inside a parcel that tricks the warehouse robot into shipping everything"
    " to a stranger's address",
    "like asking a friend to show their working on a maths problem one step at a time before"
    " giving the answer",
    "like a switchboard that connects all our apps to many model providers through one number,"
    " with a budget for each caller",
    "like keeping your notes from the pages you already read so you don't reread the whole book"
    " before writing each new word",
    "when I paste a document longer than a hundred pages the model forgets how it started",
    "the grading model always prefers the longer answer and whichever one is shown first",
    "users complain the bot takes eight seconds before anything shows up",
    "I was reading how they made the chat assistants polite, apparently people were shown pairs"
    " of answers and picked the one they liked, then another model learned to predict those"
    " picks, and then the chatbot was trained to score high with that predictor, it sounds"
    " convoluted, what is the whole procedure called",
    "my friend says you don't even need a separate scoring model anymore, you take the pairs of"
    " liked and disliked answers and directly nudge the model toward the liked one with a simple"
    " classification style loss, no reinforcement learning loop at all, which method is she"
    " talking about",
    "instead of answering once, the model gets a goal like book me a flight, then decides on its"
    " own to search, read the results, call the booking site, check what happened and keep"
    " looping until it's done with little human input, what do people call these things",
    "our support bot drafts replies to refund requests, but before anything over a hundred"
    " dollars goes out a person on the team reviews it and can approve, edit or reject it, and"
    " their decisions feed back into improving the bot, is there a name for this setup",
}
PROBES = ProbeFile("desc68_probes.tsv", STILL_FAILING)

test_an_analogy_gets_its_card = PROBES.test("analogy", expect=the_asked_card)
test_a_scene_gets_its_card = PROBES.test("scene", expect=the_asked_card)
test_a_long_story_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_a_neighbouring_shape_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"analogy": 28, "scene": 20, "long": 18, "none": 14}
)


# Tuning rows (dev9, dev14, dev20) offered first without a card on main: the words' first 8 or
# more points over their second and the meaning's first too, at cosine 0.45-0.6 but under
# agree59's meaning lead of 0.1. desc68's clear words carded all three, desc68b's guarded try
# the last two (U-Net's text leans to the field at 0.219 only, under its 0.25); both reverted.
_REVERTED = pytest.mark.xfail(strict=True, reason="desc68's and desc68b's clear words, reverted")


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        pytest.param(
            "the hourglass shaped convnet denoiser with long skips",
            "u-net",
            marks=_REVERTED,
        ),
        pytest.param(  # a card since long71's clause vote
            "the radiologists started accepting whatever the software flagged, even when it was"
            " obviously wrong, and stopped looking carefully themselves. people over-trust the"
            " computer's suggestion and miss errors they'd normally catch. my psychology class"
            " had a name for this",
            "automation-bias",
        ),
        pytest.param(
            "like one front desk that routes every supplier invoice, logs it and checks budgets",
            "llm-gateway",
            marks=_REVERTED,
        ),
    ],
)
def test_clear_words_the_meaning_puts_first_card_it(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "-")


def test_clear_words_of_a_later_question_get_no_card(bundled_index: SearchIndex) -> None:
    """A text asking in a later clause is a question for the clear words too (desc68b's guard;
    held out, desc68's wrong cards were questions `is_question` does not read). This dev6 row
    (Compute-Optimal Scaling, field 0.268, words' lead 16.6) was carded by desc68's rule and
    fails there; offered first, as on main."""
    result = bundled_index.search("chinchilla says ~20 toks per param, what's the idea behind that")
    assert result.entry is None, result
    assert result.suggestions[0].id == "compute-optimal-scaling", result


def test_a_question_s_clear_words_get_no_card(bundled_index: SearchIndex) -> None:
    """A question's clear words are often its setting: read as a description's (desc68's
    variant with questions, not measured held out), this dev15 row got Llama's card (the words
    on "facebook", the meaning's first at 0.55)."""
    result = bundled_index.search(
        "should i learn tensorflow or the facebook one everyone in research uses?"
    )
    assert result.entry is None or result.entry.id != "llama", result
