"""Probes for task long70: long chat messages (55-87 words, 300-460 characters) that name none of
their entry and put the decisive clue in the middle or at the end, and long everyday messages of
that length (a landlord, a recipe, a web build error). long70_probes.tsv was written from the
entry ids and general knowledge before any search run on the branch or reading the code; on main
75238385 14 of 26 chat messages got their card and 16 of 16 everyday ones none. A text past the
names' cut (`index.MAX_QUERY`) is now read whole by the description stage and the meaning (its
first and last 64 tokens, each entry's better cosine), and their agreement makes the long
description's card from `fusion.WHOLE_AGREED_COSINE` (bench/results/semantic.md "long70")."""

from __future__ import annotations

import numpy as np

from bot.search.fusion import LONG_COSINE, WHOLE_AGREED_COSINE, long_lead
from bot.search.semantic.encoder import QUERY_TOKENS, shared_encoder

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Each is the meaning's or the description stage's miss
# (bench/results/semantic.md "long70" lists what each stage puts first).
STILL_FAILING = {
    "ok so bit of background first, we run a pretty big model for our support bot and latency has"
    " been the main complaint from users for months now, we tried smaller batches and a faster gpu"
    " and it helped a little. then someone on the team suggested letting a tiny model guess the"
    " next few words ahead and having the big one just check them all in one go, keeping the ones"
    " it agrees with. the outputs are supposedly identical to before, how is that even possible",
    "so yesterday I was profiling our chat service because memory kept climbing as conversations"
    " got longer, and at first I blamed a leak in our python code and spent hours on that. turns"
    " out nothing leaks, it's the model holding on to the keys and values it already computed for"
    " every earlier token so it doesn't redo them at each new word, and that store grows with"
    " every turn of the chat",
    "long story but we've been training an agent with reinforcement learning to write code that"
    " passes the unit tests, and the scores went up beautifully for three days straight. when I"
    " finally read what it wrote, it had learned to edit the test files so every assertion was"
    " trivially true instead of fixing anything. the grader was happy and the code was useless",
    "every few thousand steps our training run would suddenly spike, the loss shooting up by an"
    " order of magnitude and sometimes going to nan, and we'd have to roll back to a checkpoint"
    " and pray. what finally fixed it was a one line change: before each optimizer update we"
    " rescale the whole gradient vector whenever its norm goes above one, so a single weird batch"
    " can't throw the weights off",
    "I'm using the api for generating product descriptions and the results are all over the"
    " place, sometimes lovely, sometimes unhinged with weird words. a colleague looked at my code"
    " and said I'd left the setting that divides the logits before the softmax way up at 1.8, and"
    " that lowering it toward zero makes the output more predictable and boring",
    "our customer service bot keeps giving outdated answers about our return policy, because the"
    " model was trained a year ago and we changed the policy in march. retraining every time the"
    " policy changes isn't realistic. the idea now is to look up the relevant pages from our help"
    " centre at question time and paste them into the prompt so the model answers from them"
    " instead of its memory",
    "I've been training a small image classifier on about two thousand photos for a school"
    " project and it gets ninety nine percent on the photos it learned from, which felt amazing."
    " but when I tried it on new pictures taken by my classmates it was barely better than"
    " guessing. my teacher said the model basically memorised the training photos instead of"
    " learning what the classes look like",
    "my laptop only has sixteen gigs of memory and I wanted to run a seven billion parameter model"
    " locally, which at sixteen bits per number needs about fourteen gigs just for the weights."
    " someone on reddit told me to store each weight in four bits instead, it barely hurts the"
    " answers and the whole thing fits in four gigs, and it actually runs fast now",
    "before the launch, the security team hired a group of outside people for two weeks whose"
    " whole job was to try to get our assistant to do bad things: give dangerous instructions,"
    " leak other users' data, say offensive stuff. they wrote up every trick that worked and we"
    " patched what we could before release. what's the usual term for that exercise",
    # a card on main: read whole, the closing words ("... reveal they were a patient there")
    # score Differential Privacy's text 47.8 against 49.1, no clear description first left
    "a hospital asked us to audit a model they trained on patient records. what worried them"
    " wasn't the model leaking whole records, but someone being able to tell, just from how"
    " confident the model is on a given person's data, whether that particular person was in the"
    " training set at all, which would itself reveal they were a patient there",
    "our support team got a new target last quarter: close tickets within an hour. the number"
    " looked fantastic within weeks, but customers were angrier than ever, because agents were"
    " closing tickets the moment they replied and telling people to open a new one if it wasn't"
    " solved. once the measure became the goal it stopped telling us anything useful, and I keep"
    " seeing that with ai benchmarks too",
}
PROBES = ProbeFile("long70_probes.tsv", STILL_FAILING)

test_a_long_chat_message_gets_its_card = PROBES.test("chat", expect=the_asked_card)
test_a_long_everyday_message_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"chat": 26, "none": 16})

FIRST, SECOND = 3, 7
AGREED = [(FIRST, WHOLE_AGREED_COSINE + 0.01), (SECOND, WHOLE_AGREED_COSINE)]


def test_a_text_read_whole_agreeing_is_a_card_under_the_long_cosine() -> None:
    assert WHOLE_AGREED_COSINE < LONG_COSINE
    assert long_lead(AGREED, described_first=FIRST, read_whole=True)
    assert not long_lead(AGREED, described_first=FIRST)  # a text within the cut, as before


def test_a_text_read_whole_still_needs_the_agreement() -> None:
    assert not long_lead(AGREED, read_whole=True)
    assert not long_lead(AGREED, described_first=SECOND, read_whole=True)
    low = [(FIRST, WHOLE_AGREED_COSINE - 0.01), (SECOND, WHOLE_AGREED_COSINE - 0.02)]
    assert not long_lead(low, described_first=FIRST, read_whole=True)


def test_a_long_text_adds_the_vector_of_its_last_window() -> None:
    """The extra row is the text's last QUERY_TOKENS tokens as their own pass reads them; a text
    within QUERY_TOKENS adds none, and the rows before it are what they were."""
    encoder = shared_encoder()
    head = "we tried smaller batches and a faster gpu and it helped a little. " * 6
    tail = "a tiny model guesses the next words and the big one checks them all at once"
    texts = [head + tail, "what is that called"]
    rows = encoder.encode_queries(texts, fit=True, last_window=True)
    assert len(rows) == 3
    alone = encoder.encode_queries(texts, fit=True)
    assert np.allclose(rows[:2], alone, atol=1e-5)
    end = encoder.tokenizer.encode_end(texts[0], QUERY_TOKENS)
    assert end is not None
    assert len(end) == QUERY_TOKENS
    assert end[-2] == encoder.tokenizer.encode(tail, QUERY_TOKENS)[-2]  # its last word's piece
    assert float(rows[2] @ encoder._forward_ragged([end])[0]) > 0.99999
    assert len(encoder.encode_queries(["what is that called"], last_window=True)) == 1
