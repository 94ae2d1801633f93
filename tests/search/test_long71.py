"""Probes for task long71: long chat messages (40-80 words, several sentences, the clue
anywhere) that name nothing of their entry, and long off-topic messages (a landlord, bread, a
trip, taxes). long71_probes.tsv was written from the entry ids and general knowledge before any
search run on the branch or reading the code; on main 177655cf 16 of 44 chat messages get their
card (one a wrong card: function calling -> Tool Calling) and 10 of 10 off-topic ones none. With
the clause vote (`SemanticIndex.similar_by_clauses`: a text of CLAUSED_CHARS or more ranked by
the mean of its whole cosine and its clauses' vote) 19 of 44, no wrong card, 10 of 10
(bench/results/semantic.md "long71")."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Most are ranked first by the meaning but under the long
# description's card (cosine LONG_COSINE, lead LONG_LEAD), which this task left as it was;
# longcard72's card on the vote's scale (`fusion.claused_agreed`) carded seven more.
STILL_FAILING = {
    "hey all, quick one from me. my cousin is doing a course and keeps going on about this "
    "trick where, instead of fiddling with every number inside a huge model, you bolt on two "
    "skinny little matrices beside each big one and only train those. she says it fits on a "
    "gaming card at home now. the original stays frozen. what is that actually called and why"
    " does it work",
    "honest question, not trying to start a fight. the bot told my friend a court case "
    "existed, gave the judge, the year, even quotes, and none of it was real. it sounded "
    "completely confident. she nearly put it in a letter to her landlord. why do these things"
    " just make stuff up so smoothly, and what do the researchers call it",
    "background: our support bot answers from a frozen model that knows nothing about our "
    "products. the plan is that before it answers, we look up the three most relevant help "
    "articles from our docs and paste them into the prompt, so it writes from them and can "
    "cite them. apparently this is a standard pattern with a name, what is it",
    "we trained for ages and the training numbers kept getting better and better, basically "
    "perfect by the end. then we tried it on fresh examples it had never seen and it fell "
    "apart completely, worse than the early version. my teammate says it memorised the quirks"
    " of the training set instead of learning the general thing. what's the word for that",
    "so i was reading about how chatbots get made nice. apparently after the big pretraining "
    "they show people pairs of answers, people pick the better one, they train a separate "
    "model to predict those choices, then use that as a score to push the chatbot with "
    "reinforcement. sounds complicated. is there a short name for the whole recipe",
    "my laptop has 16 gigs and the model i want is way too big. someone on a forum said just "
    "store each number with four bits instead of sixteen, you lose a tiny bit of quality but "
    "it shrinks to a quarter and runs fine. they made it sound like magic. what is this "
    "squeezing trick called in general",
    "bit of a weird one. when the model writes its reply, it produces one word piece at a "
    "time, and each time it seems to redo work for all the earlier words. my friend says the "
    "servers keep the intermediate results for the earlier words in memory so they don't "
    "recompute them, and that this memory is why long chats eat so much gpu. what is that "
    "stored thing",
    "question from a product person so go easy. our engineers keep saying we should have a "
    "big smart model train a small cheap one by making the small one copy the big one's full "
    "probability outputs rather than just the right answers. they say the small one ends up "
    "much better than training alone. what is that approach named",
    "we keep getting broken output from the model when we ask for data our code can parse, "
    "like missing brackets or extra chatter before it. a colleague says you can force the "
    "generator so at each step it's only allowed to choose tokens that keep the text valid "
    "against a grammar or schema, so it can't go off the rails. what is that technique",
    "a friend works at an ai lab and says part of her job is pretending to be a bad actor, "
    "trying every nasty trick to get the model to say dangerous things before it's released, "
    "then reporting what worked so it gets fixed. she calls it adversarial testing but i "
    "think there's a specific name borrowed from the military",
    "quick q. we have a search step that pulls the top hundred documents fast using cheap "
    "vectors. then a second, slower model reads each query together with each document and "
    "scores them again properly so the best ten go first. our results got way better. what's "
    "the name for that second pass, the second scoring step",
    "our assistant can now look up the weather, book meetings and query our database. the "
    "model doesn't do those itself, it outputs a structured request naming which of our "
    "routines to run and with what arguments, our code runs it and passes the result back. my"
    " manager wants to know what this capability is called in the docs",
    "my team used to train with plain stochastic updates but everyone now uses an optimizer "
    "that keeps a running average of the gradients and of their squares for each weight, so "
    "every parameter gets its own step size. we then switched to a variant that handles "
    "weight decay separately. what's the original one called",
    "odd thing we found. in long generations the model puts a huge share of its focus on the "
    "very first token of the text even when that token means nothing, like the start marker. "
    "when we dropped it from the cache to save memory the output went to garbage. someone "
    "said there's a name for that phenomenon",
    "we built a tiny side project where a network learns to rebuild its own inner activations"
    " through a much wider layer where only a few units fire at once, to pull apart the "
    "mixed-up concepts packed inside. people use it to find features like a golden gate "
    "bridge unit. what kind of network is that",
    "i'm new to ml. my mentor said after a model is trained, we save all its learned numbers "
    "to a file at regular points during training, so if the machine crashes we can restart "
    "from the last one instead of from scratch, and we can also pick the best one later. what"
    " is one of those saved files called",
    "we are fine tuning a chat model and someone said skip the whole reward model business. "
    "just take pairs of a better answer and a worse answer and just train the model to raise "
    "the odds of the first relative to the second, compared to a frozen copy. much simpler "
    "and stable. what is that method called",
    # positional-encoding: carded on main; long74's vote reads it (its asking clause, naming "token",
    # lies past the 300-character cut, so the names stand only in clauses asking nothing) and
    # puts Positional Encoding first on the averaged scale, where it is an offer, not the card
    "reading about how language models know word order, since the attention itself doesn't "
    "care about order. older ones added fixed sine and cosine patterns to each token, newer"
    " ones rotate the query and key vectors by an angle depending on where the token sits. "
    "what's the general name for telling the model where each token sits like that",
}
PROBES = ProbeFile("long71_probes.tsv", STILL_FAILING)

test_a_long_chat_message_gets_its_card = PROBES.test("chat", expect=the_asked_card)
test_a_long_off_topic_message_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"chat": 44, "none": 10})
