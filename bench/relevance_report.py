"""Relevance of the full search on every set, per slice and kind (the README's figures).

    python bench/relevance_report.py [--misses dev,calib,dev2,dev3,dev4,dev5,dev6,dev7,dev8,dev9,dev10,dev11,dev12,dev13,dev14,dev15,dev16,dev17,dev18,dev19,dev20,dev21,dev22,dev23,dev24,dev25,dev26,dev27,dev28,dev29,dev30,dev31] [--lexical]

Sets: `tests/search/relevance.tsv` (old, written with the matcher), `relevance_blind.tsv` (dev /
calib / test slices), `relevance_blind2.tsv` (slice `test2`, written later from titles alone,
held out), `relevance_blind3.tsv` (slices `dev2` to tune on and `test3` held out, written
from titles alone after that), `relevance_blind4.tsv` (slices `dev3` to tune on and `test4`
held out, written the same way after that), `relevance_blind5.tsv` (one slice, `test5`, held
out, written the same way after that), `relevance_blind6.tsv` (one slice, `test6`, held out,
written the same way after that), `relevance_blind7.tsv` (one slice, `dev4`, to tune on,
written the same way after that), `relevance_blind8.tsv` (one slice, `test7`, held out,
written the same way after that), `relevance_blind9.tsv` (slices `dev5` to tune on and `test8`
held out, each over the whole glossary, written the same way after that),
`relevance_blind10.tsv` (one slice, `dev6`, to tune on, typed the way people write in a busy
server, written the same way after that), `relevance_blind11.tsv` (one slice, `test9`, held
out, in every chat style, written the same way after that), `relevance_blind12.tsv` (one
slice, `test10`, held out, written the same way after that), `relevance_blind13.tsv` (one
slice, `test11`, held out, written the same way after that), `relevance_blind14.tsv` (one
slice, `test12`, held out, written the same way after that), `relevance_blind15.tsv` (one
slice, `test13`, held out, written the same way after that), `relevance_blind16.tsv` (one
slice, `test14`, held out, written the same way after that), `relevance_blind17.tsv` (one
slice, `dev7`, to tune on, questions writing two names in both readings, written the same way
after that), `relevance_blind18.tsv` (one slice, `test15`, held out, in the voices of several
kinds of user, written the same way after that), `relevance_blind19.tsv` (one slice, `test16`,
held out, as typed in the Discord servers where such a bot lives, written the same way after
that), `relevance_blind20.tsv` (one slice, `dev8`, to tune on, in test16's voices, written the
same way after that), `relevance_blind21.tsv` (one slice, `test17`, held out, in new voices:
pasted abstracts, release notes, job ads and tweets, non-native speakers, managers, designers,
voice-to-text and autocomplete-short descriptions, written the same way after that),
`relevance_blind22.tsv` (one slice, `dev9`, to tune on, mostly descriptions, short and long,
written the same way after that), `relevance_blind23.tsv` (one slice, `test18`, held out, in
the voices of AI Discord servers: students, hobbyists, engineers, researchers, pasted error
messages and log lines, "wait what's X here" thread replies, written the same way after that),
`relevance_blind24.tsv` (one slice, `dev10`, to tune on, written by shape after test18: a
context naming one entry then a question about another, a broad entry named in passing as the
setting, 3-7 word and 25+ word descriptions, off-topic rows using entry words in another sense),
`relevance_blind25.tsv` (one slice, `test19`, held out, in the voices of Discord servers not
about AI: a game's, an art or writing community, a school class, a small business, parents, a
language-learning server, a few power users, written the same way after that),
`relevance_blind26.tsv` (one slice, `dev11`, to tune on, written by shape after test19: a told
scene whose named entry is the subject, a told scene naming another entry than the one asked
about, pasted error and log lines, thread replies naming the entry only in the quote,
descriptions in non-native English or with heavy typos),
`relevance_blind27.tsv` (one slice, `test20`, held out, text as Discord delivers it to a bot:
user, role and channel mentions, custom and unicode emoji, markdown, links, several lines in
one message, chat fillers, all-caps and two-to-four-word questions, written the same way after
that), `relevance_blind28.tsv` (one slice, `dev12`, to tune on, written after test20 in the
voices of servers not about AI: plain chat questions, and off-topic rows using everyday senses
of entry words: bill, print, train, server, model, token, memory, cache, ...),
`relevance_blind29.tsv` (one slice, `test21`, held out, half-remembered names: wrong acronym
expansions, mangled names, names heard in a talk or spelled in another language, a paper,
product or person standing for the idea, a neighbour's name beside the right description;
descriptions of 3-7 and of 35-80 words; off-topic rows from neighbouring technical fields,
written the same way after that), `relevance_blind30.tsv` (one slice, `dev13`, to tune on,
written after test21: questions comparing two entries, "X vs Y", "is X the same as Y", "does X
replace Y", the first written entry expected and the second in `also`, in the voices of
newcomers and non-native speakers; descriptions in non-native English; off-topic rows from
other neighbouring technical fields), `relevance_blind31.tsv` (one slice, `dev14`, to tune on,
written after dev13: long descriptions of 35 to 65 words told as a chat story with hedges and
digressions, long questions with their context, long off-topic messages from neighbouring
fields: cloud, web, databases, networking, hardware, statistics, project management),
`relevance_blind32.tsv` (one slice, `test22`, held out, what a blind outside tester types:
short slangy questions, typos mid-sentence, two questions in one message, a question after a
pasted error or code line, "is it true that", "how do i"; descriptions of 8-20 and of 35-80
words; off-topic rows from neighbouring fields and everyday life sharing the field's words,
written the same way after that), `relevance_blind33.tsv` (one slice, `dev15`, to tune on, the
independent checks' shapes over half the glossary: one short description of 4-15 words and one
chat-style question per entry, off-topic rows from cloud, web, crypto, programming, data
engineering and everyday chat), `relevance_blind34.tsv` (one slice, `test23`, held out, the
same shapes over the other half in other voices: people new to AI, non-native speakers,
hurried developers, a teacher, a manager; written the same way after that),
`relevance_blind35.tsv` (one slice, `dev16`, to tune on, the checks' shapes again over half the
glossary, split by alternate ids within each category: one description per entry in three
lengths, 4-8, 9-18 and 25-50 words, and one Discord-style question, off-topic rows from cloud,
web, crypto, programming, data engineering, statistics and everyday chat, a third using
"model", "training", "token" or "agent" in another sense), `relevance_blind36.tsv` (one slice,
`test24`, held out, the same shapes over the other half in other voices: students, non-native
speakers, support staff, a product manager, an ops engineer; written the same way after that),
`relevance_blind37.tsv` (one slice, `dev17`, to tune on, the checks' shapes over half the
glossary split by alternate titles from the end of each category: descriptions in three
lengths, a third saying what the thing is for with none of its title's words, Discord
questions, off-topic rows from neighbouring fields, a third using "model", "training",
"token", "agent", "embedding" or "pipeline" in another sense), `relevance_blind38.tsv` (one
slice, `test25`, held out, the same shapes over the other half in other voices: a hobbyist
running models at home, a lawyer reading an AI contract, a journalist, a data scientist from
classical ML, a non-native speaker; written the same way after that),
`relevance_blind39.tsv` (one slice, `dev18`, to tune on, the checks' shapes over half the
glossary split by ids read backwards, alternately within each category: descriptions in three
lengths, a third saying what the thing is for with none of its title's words, a third
half-remembering the name, Discord questions, off-topic rows from neighbouring fields, a third
using "model", "training", "token", "agent", "embedding", "pipeline", "attention" or
"inference" in another sense), `relevance_blind40.tsv` (one slice, `test26`, held out, the same
shapes over the other half in other voices: a student the night before an exam, a product
manager, a game developer, a sysadmin on call, a teacher, a speaker writing through machine
translation; written the same way after that),
`relevance_blind41.tsv` (one slice, `dev19`, to tune on, the shapes recent rounds missed over
half the glossary split by the sha1 of the id, alternately within each category: questions behind
chat fillers and openers, after a pasted log or code line, after a statement naming the entry or
another, with the name as subject or object, "what's the X thing people keep mentioning"; a
description per entry in three lengths; off-topic rows in the same chat shapes),
`relevance_blind42.tsv` (one slice, `test27`, held out, the other half in the independent checks'
shapes as test26, in other voices: a nurse, a security engineer, a startup founder, a retiree, a
physics student, a novelist; written the same way after that),
`relevance_blind43.tsv` (one slice, `dev20`, to tune on, the checks' shapes over half the
glossary split by the sha256 of the id, alternately within each category: descriptions by an
analogy from the writer's trade, by a scene they saw, or half-remembering the name; questions in
six voices (a musician, an accountant, a parent, a chef, a biologist, a mobile developer), a third
of them long and rambling; 20 "difference between X and Y" questions with Y in `also`; off-topic
rows in the same voices and from neighbouring fields), `relevance_blind44.tsv` (one slice,
`test28`, held out, the other half in the same shapes in other voices: a dispatcher, an
architect, a pharmacist, a policy analyst, a sports coach, a marketer; written the same way
after that),
`relevance_blind45.tsv` (one slice, `dev21`, to tune on, the checks' shapes over half the
glossary split by the blake2b of the id, alternately within each category: descriptions of 4-6,
7-15 and 16-40 words naming nothing of the entry; questions from a Discord moderator, a
high-school student, a translator, a hardware tinkerer and someone typing on a phone, 24 of them
comparing two entries with the second in `also`; off-topic rows from neighbouring fields and
everyday chat, a third with an entry's word in another sense), `relevance_blind46.tsv` (one
slice, `test29`, held out, the other half in the same shapes in other voices: a data-annotation
worker, an investor, a retired engineer, a librarian, a streamer; written the same way after
that), `relevance_blind47.tsv` (one slice, `dev22`, to tune on, half the glossary split by the
md5 of the lower-cased title, alternately within each category: descriptions of 5-10, 11-25 and
26-60 words naming nothing of the entry; questions from a farmer, a DJ, a truck driver, a tattoo
artist and a chess coach, most naming nothing of their entry, 16 comparing two entries with the
second in `also`, 22 misspelling the name; off-topic rows from neighbouring fields and everyday
life, half with an entry's word in another sense), `relevance_blind48.tsv` (one slice,
`test30`, held out, the other half in the same shapes in other voices: a firefighter, a museum
guide, a bookkeeper, a call-centre worker, a podcast host; written the same way after that),
`relevance_blind49.tsv` (one slice, `dev23`, to tune on, half the glossary split by the sha1 of
the id written backwards, alternately within each category, the second to dev23: one statement
per entry that asks nothing and names nothing of it, 4-9, 10-24 and 25-50 words, some ending in
a tag ("right", "i think", "lol"); one chat question per entry from a beekeeper, a ferry
captain, a choir director, a locksmith or a wedding planner, about 20 naming another entry as
context, 12 comparing two entries with the second in `also`, 12 misspelling the name; 50
off-topic rows: other-field comparisons, an entry's word in another sense, plain other-field
questions), `relevance_blind50.tsv` (one slice, `test31`, held out, the other half in the same
shapes in other voices: a radiographer, a sommelier, a surveyor, a puppeteer, a librarian;
written right after dev23), `relevance_blind51.tsv` (one slice, `dev24`, to tune on, half the
glossary split by the md5 of "70:" + id, alternately within each category, the first to dev24:
one description per entry naming nothing of it, 4-12, 13-35 and 40-70 words; one chat question
per entry from a glassblower, a tram driver, a midwife, a court stenographer or a falconer, 11
comparing two entries with the second in `also`; 28 compounds ("what is <name> <head>"), the
head moving the answer to another entry (named entry in `also`) or off the glossary, or
leaving it; 50 off-topic rows: other-field comparisons with an entry's word, an entry's word in
another sense, plain other-field questions), `relevance_blind52.tsv` (one slice, `test32`, held
out, the other half in the same shapes in other voices: a piano tuner, a zookeeper, a stage
manager, a cartographer, a brewer; written right after dev24), `relevance_blind53.tsv` (one
slice, `dev25`, to tune on, half the glossary split by the md5 of "71:" + id, alternately within
each category, the second to dev25: about 20 scene questions asking one entry while another is
named as the setting, 10 controls asking the named entry, 12 names dropped in a chat frame, 11
comparisons with the second in `also`, one description (4-12, 13-35, 40-70 words) or one chat
question for each other entry, from a beekeeper, a lighthouse keeper, a locksmith or a choir
director; 50 off-topic rows: comparisons of an entry's word with an everyday thing, an entry's
word in another sense, plain other-field questions), `relevance_blind54.tsv` (one slice,
`test33`, held out, the other half in the same shapes in other voices: a ferry captain, a
taxidermist, a pastry chef, a glassblower, a falconer; written right after dev25),
`relevance_blind55.tsv` (one slice, `dev26`, to tune on, half the glossary split by the md5 of
"72:" + id, alternately within each category, the second to dev26: one chat-style question (half
naming nothing of the entry, half naming it plainly) or one description naming nothing of it
(6-20, 21-39, 40-70 words) for each entry, 12 purpose questions, from a park ranger, a crane
operator, a blacksmith, a tree surgeon, a sign painter, a ski instructor; 50 off-topic rows: an
entry's word in another field's sense, plain other-field questions, far fields),
`relevance_blind56.tsv` (one slice, `test34`, held out, the other half in the same shapes in
other voices: a bike courier, a tugboat pilot, a stonemason, a dog groomer, a bookbinder;
written right after dev26),
`relevance_blind57.tsv` (one slice, `dev27`, to tune on, half the glossary split by the md5 of
"73:" + id, alternately within each category, the first to dev27: harder, naming nothing: one
description naming nothing of it for each entry (a third each of 4-9, 10-25 and 26-60 words: what
it does, what it is for, an analogy, a symptom), one chat question for about half the entries (a
quarter naming the entry), from a harbour master, a cheesemaker, an auctioneer, a subtitler,
a clockmaker; 50 off-topic rows: 25 near-misses using an entry's word in another
field's sense, 15 plain programming / cloud / web / crypto questions, 10 far fields),
`relevance_blind58.tsv` (one slice, `test35`, held out, the other half in the same shapes in
other voices: a ferry mechanic, an organ builder, a farrier, an orchardist, a tailor; written
right after dev27),
`relevance_blind59.tsv` (one slice, `dev28`, to tune on, half the glossary split by the md5 of
"74:" + id, alternately within each category, the first to dev28: one description per entry (a
third each of 4-9, 10-25 and 26-45 words, most naming nothing of it) and one chat question per
entry (half naming it), from a typesetter, a welder, an elevator technician, a crossword setter,
a medical transcriptionist, beginners, managers, students, ops engineers; 60 off-topic chat
questions from cloud, web, crypto, programming, databases and networking, 20 of them using a
word AI/ML also uses in its own sense),
`relevance_blind60.tsv` (one slice, `test36`, held out, the other half in the same shapes in
other voices: a chimney sweep, a glazier, a luthier, a lifeguard, a hotel concierge; written
right after dev28),
`relevance_blind61.tsv` (one slice, `dev29`, to tune on, half the glossary split by the md5 of
"75:" + id, alternately within each category, the first to dev29, in dev28's shapes: one
description per entry (a third each of 4-9, 10-25 and 26-45 words, most naming nothing of it)
and one chat question per entry (half naming it), from a barista, a plumber, a florist, a ham
radio operator, a crossing guard; 60 off-topic chat questions from neighbouring fields and
everyday chat, about 20 using a word AI/ML also uses in its own sense),
`relevance_blind62.tsv` (one slice, `test37`, held out, the other half in the same shapes in
other voices: a fishmonger, a roofer, a dental hygienist, a tour guide, a mail carrier; written
right after dev29),
`relevance_blind63.tsv` (one slice, `dev30`, to tune on, half the glossary split by the md5 of
"76:" + id, alternately within each category, the first to dev30, in dev28's shapes: one
description per entry (a third each of 4-9, 10-25 and 26-45 words, most naming nothing of it)
and one chat question per entry (half naming it), from a carpenter, a bus driver, a bricklayer,
a paramedic; 60 off-topic chat questions from neighbouring fields and everyday chat, the first
20 using a word AI/ML also uses in its own sense),
`relevance_blind64.tsv` (one slice, `test38`, held out, the other half in the same shapes in
other voices: a game modder, a go club member, a retired teacher, a scrabble club secretary;
written right after dev30),
`relevance_blind65.tsv` (one slice, `dev31`, to tune on, half the glossary split by the md5 of
"77:" + id, alternately within each category, the first to dev31, in dev28's shapes: one
description per entry (a third each of 4-9, 10-25 and 26-45 words, most naming nothing of it)
and one chat question per entry (half naming it), from a sound engineer, a tax adviser, a rowing
coach, a lighthouse keeper's grandchild, a potter; 60 off-topic chat questions: 20 using a word
AI/ML also uses in its own sense, 15 Discord-server chat, 25 plain other-field or everyday),
`relevance_blind66.tsv` (one slice, `test39`, held out, the other half in the same shapes in
other voices: a canal lock keeper, a tiler, a vet, a mountain guide, a sailmaker; written right
after dev31),
`relevance_everyday2.tsv` (one slice, `everyday2`, to tune on: off-topic messages from Discord
servers not about AI using the everyday senses of the field's words, so that new phrasings
bringing such words into the glossary show up on tuning data),
`relevance_everyday3.tsv` (one slice, `everyday3`, to tune on: everyday situations that share an
entry's idea but not its field, a game's save point, a grade average, a lost match)
and `everyday_probes.tsv` (entry names in
their everyday sense and ML questions using them: slice `everyday` to tune on,
`everyday-check` held apart) and `chat_style_probes.tsv` (questions typed the way people write
in a Discord chat: slice `chat` to tune on, `chat-check` held apart).
Misses are printed only for the slices named (never test, test2 to test39, everyday-check or
chat-check: they are reported, not tuned on). Last line JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import (  # noqa: E402
    OFF_TOPIC_KINDS,
    Case,
    evaluate,
    evaluate_slices,
    format_sliced,
    load_cases,
)

SETS = (
    "relevance_blind.tsv",
    "relevance_blind2.tsv",
    "relevance_blind3.tsv",
    "relevance_blind4.tsv",
    "relevance_blind5.tsv",
    "relevance_blind6.tsv",
    "relevance_blind7.tsv",
    "relevance_blind8.tsv",
    "relevance_blind9.tsv",
    "relevance_blind10.tsv",
    "relevance_blind11.tsv",
    "relevance_blind12.tsv",
    "relevance_blind13.tsv",
    "relevance_blind14.tsv",
    "relevance_blind15.tsv",
    "relevance_blind16.tsv",
    "relevance_blind17.tsv",
    "relevance_blind18.tsv",
    "relevance_blind19.tsv",
    "relevance_blind20.tsv",
    "relevance_blind21.tsv",
    "relevance_blind22.tsv",
    "relevance_blind23.tsv",
    "relevance_blind24.tsv",
    "relevance_blind25.tsv",
    "relevance_blind26.tsv",
    "relevance_blind27.tsv",
    "relevance_blind28.tsv",
    "relevance_blind29.tsv",
    "relevance_blind30.tsv",
    "relevance_blind31.tsv",
    "relevance_blind32.tsv",
    "relevance_blind33.tsv",
    "relevance_blind34.tsv",
    "relevance_blind35.tsv",
    "relevance_blind36.tsv",
    "relevance_blind37.tsv",
    "relevance_blind38.tsv",
    "relevance_blind39.tsv",
    "relevance_blind40.tsv",
    "relevance_blind41.tsv",
    "relevance_blind42.tsv",
    "relevance_blind43.tsv",
    "relevance_blind44.tsv",
    "relevance_blind45.tsv",
    "relevance_blind46.tsv",
    "relevance_blind47.tsv",
    "relevance_blind48.tsv",
    "relevance_blind49.tsv",
    "relevance_blind50.tsv",
    "relevance_blind51.tsv",
    "relevance_blind52.tsv",
    "relevance_blind53.tsv",
    "relevance_blind54.tsv",
    "relevance_blind55.tsv",
    "relevance_blind56.tsv",
    "relevance_blind57.tsv",
    "relevance_blind58.tsv",
    "relevance_blind59.tsv",
    "relevance_blind60.tsv",
    "relevance_blind61.tsv",
    "relevance_blind62.tsv",
    "relevance_blind63.tsv",
    "relevance_blind64.tsv",
    "relevance_blind65.tsv",
    "relevance_blind66.tsv",
    "relevance_everyday2.tsv",
    "relevance_everyday3.tsv",
    "everyday_probes.tsv",
    "chat_style_probes.tsv",
)
HELD_OUT = {
    "test",
    "test2",
    "test3",
    "test4",
    "test5",
    "test6",
    "test7",
    "test8",
    "test9",
    "test10",
    "test11",
    "test12",
    "test13",
    "test14",
    "test15",
    "test16",
    "test17",
    "test18",
    "test19",
    "test20",
    "test21",
    "test22",
    "test23",
    "test24",
    "test25",
    "test26",
    "test27",
    "test28",
    "test29",
    "test30",
    "test31",
    "test32",
    "test33",
    "test34",
    "test35",
    "test36",
    "test37",
    "test38",
    "test39",
    "everyday-check",
    "chat-check",
}


def every_case(sets: Iterable[str] = SETS) -> list[Case]:
    """Every row of every set the report reads (or of `sets`), read as it reads them
    (`load_cases`: `also` split on ",", an off-topic row's `expected` None): the one reading the
    what-if scripts (bench/*_rows_changed.py) share with the report."""
    return [case for name in sets for case in load_cases(ROOT / "tests/search" / name)]


def shown_row_by_row(slice_name: str) -> bool:
    """Whether a what-if may print a slice's rows: tuning slices only; held-out slices and
    calib are counted, never shown."""
    return slice_name not in HELD_OUT and slice_name != "calib"


def by_length(cases: list[Case]) -> list[Case]:
    """The descriptions, their kind named by their length in words: a slice's very short
    (autocomplete-box) and long (a story) descriptions fail differently, and their totals say
    which without reading a held-out row."""

    def band(words: int) -> str:
        return "desc <=7w" if words <= 7 else "desc 8-34w" if words <= 34 else "desc >=35w"

    return [
        replace(case, kind=band(len(case.query.split())))
        for case in cases
        if case.kind == "description"
    ]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--misses",
        default="",
        help=(
            "slices whose misses to list (dev, calib, dev2 to dev31, everyday, everyday2, everyday3, "
            "chat)"
        ),
    )
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    parser.add_argument("--lexical", action="store_true", help="without the semantic stage")
    parser.add_argument(
        "--by-length",
        action="store_true",
        help="also split each slice's descriptions by length (totals only; searched again)",
    )
    args = parser.parse_args()
    shown = set(filter(None, args.misses.split(","))) - HELD_OUT
    index = SearchIndex.build(load_glossary(), semantic=not args.lexical)
    figures: dict[str, dict[str, float]] = {}
    for name in SETS:
        cases = load_cases(ROOT / "tests/search" / name)
        if args.slices:
            cases = [c for c in cases if c.slice in args.slices.split(",")]
        if not cases:
            continue
        reports = evaluate_slices(index, cases)
        print(f"== {name}")
        print(format_sliced(reports))
        described = by_length(cases) if args.by_length else []
        if described:
            print(format_sliced(evaluate_slices(index, described)))
        for part, report in reports.items():
            on = report.total(off_topic=False)
            for kind, t in report.by_kind.items():
                key = f"{part}/{kind}"
                if kind in OFF_TOPIC_KINDS:
                    figures[key] = {"n": t.total, "no_card": round(t.rate(t.top1), 4)}
                else:
                    figures[key] = {
                        "n": t.total,
                        "card": round(t.rate(t.direct), 4),
                        "card3": round(t.rate(t.near), 4),
                        "wrong": round(t.rate(t.wrong), 4),
                    }
            figures[f"{part}/wrong_of_cards"] = {"wrong": on.wrong, "cards": on.cards}
            off = report.total(off_topic=True)
            if off.total:  # off-topic rows given choices, though no card
                figures[f"{part}/offtopic_offered"] = {"n": off.total, "offered": off.offered}
            if on.paired:  # "X vs Y" rows: X carded and Y offered first (strict)
                figures[f"{part}/pairs"] = {"n": on.paired, "both": on.both}
            if part in shown:
                print(f"-- misses, {part}")
                print("\n".join(f"  {m}" for m in report.misses))
    old = evaluate(index, load_cases(ROOT / "tests/search/relevance.tsv"))
    print("== relevance.tsv (top-1 / wrong cards)")
    for kind, t in sorted(old.by_kind.items()):
        print(f"  {kind:<28}{t.total:>5}{t.rate(t.top1):>8.1%}{t.wrong:>4}")
        figures[f"old/{kind}"] = {"n": t.total, "top1": round(t.rate(t.top1), 4), "wrong": t.wrong}
    if "old" in shown:
        print("\n".join(f"  {m}" for m in old.misses))
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
