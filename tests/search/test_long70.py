"""Probes for task long70: long chat messages (55-87 words, 300-460 characters) that name none of
their entry and put the decisive clue in the middle or at the end, and long everyday messages of
that length (a landlord, a recipe, a web build error). long70_probes.tsv was written from the
entry ids and general knowledge before any search run on the branch or reading the code; on main
75238385 14 of 26 chat messages get their card and 16 of 16 everyday ones none. long70's whole
reading of a text past the names' cut (description stage and meaning, their agreement from
cosine 0.5) made 15 of 26 and failed the ship rule on held out (one right card fewer, one wrong
more): reverted (bench/results/semantic.md "long70")."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. The meaning's first is under the long-description card's
# cosine or leads too little, or the description stage does not agree (bench/results/semantic.md
# "long70"); benchmark contamination and human in the loop were cards with long70's reading.
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
    "our support team got a new target last quarter: close tickets within an hour. the number"
    " looked fantastic within weeks, but customers were angrier than ever, because agents were"
    " closing tickets the moment they replied and telling people to open a new one if it wasn't"
    " solved. once the measure became the goal it stopped telling us anything useful, and I keep"
    " seeing that with ai benchmarks too",
    "we were all excited last week because our new model jumped twelve points on that popular"
    " maths test and the slides were already made for the all hands. then an intern searched the"
    " pretraining crawl and found hundreds of the test problems with their worked answers"
    " sitting in there word for word, scraped off some forum. so now nobody trusts the number and"
    " my manager wants to know what this problem is called",
    "our agent can draft refunds for customers automatically, but after one incident where it"
    " refunded a thousand dollars for a twenty dollar order, we changed the flow so that anything"
    " above fifty dollars stops and waits for a person on the team to look at it and approve or"
    " reject it before any money moves",
}
PROBES = ProbeFile("long70_probes.tsv", STILL_FAILING)

test_a_long_chat_message_gets_its_card = PROBES.test("chat", expect=the_asked_card)
test_a_long_everyday_message_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"chat": 26, "none": 16})
