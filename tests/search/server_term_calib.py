"""Calibration data for server terms found by meaning: fifteen made-up communities, a few terms
each, two descriptions of every term in a member's words (no term names), and off-topic chat
per server that must not get a card.

Written from imagination before reading how server terms are matched (issue 12). Used to set
whether a lone clear-lead semantic choice for a server term may be a card
(`bench/server_term_calib.py`); the tests in `test_server_term_calib.py` hold the result.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.glossary.server_terms import ServerTerm


@dataclass(frozen=True)
class Server:
    name: str
    terms: tuple[ServerTerm, ...]
    # (description in a member's words, id of the term it means)
    described: tuple[tuple[str, str], ...]
    # chat in that server that names none of its terms nor any glossary entry
    off_topic: tuple[str, ...]


def _term(term_id: str, title: str, definition: str) -> ServerTerm:
    return ServerTerm(id=term_id, title=title, definition=definition, category="Fundamentals")


SERVERS = (
    Server(
        "mmo guild",
        (
            _term(
                "dkp",
                "Dragon Kill Points",
                "Points a raider earns for showing up to raids; "
                "spent in bids on the loot that drops.",
            ),
            _term(
                "wipe-night",
                "Wipe Night",
                "The weekly raid evening kept for learning a new "
                "boss, where everyone expects to die many times.",
            ),
            _term(
                "bench-rotation",
                "Bench Rotation",
                "The schedule deciding which members sit "
                "out a raid when more people sign up than there are spots.",
            ),
        ),
        (
            ("points you collect by attending raids and spend bidding on gear", "dkp"),
            ("the currency for bidding on drops after showing up", "dkp"),
            ("the evening we practise a new boss and die over and over", "wipe-night"),
            ("progression night where dying a lot is expected", "wipe-night"),
            ("who has to sit out when too many people sign up for the run", "bench-rotation"),
            ("schedule for taking turns on the sidelines of a raid", "bench-rotation"),
        ),
        ("anyone know a good gaming mouse under fifty bucks", "my internet keeps dropping tonight"),
    ),
    Server(
        "open source project",
        (
            _term(
                "lgtm-bot",
                "Stamp Bot",
                "The bot that merges a pull request once two "
                "maintainers approve it and the checks pass.",
            ),
            _term(
                "good-first",
                "Starter Issue",
                "An issue tagged as small and well described, "
                "kept for people making their first contribution.",
            ),
            _term(
                "bikeshed-jar",
                "Bikeshed Jar",
                "A running joke: whoever reopens a settled "
                "naming debate owes the project a donation.",
            ),
        ),
        (
            ("the thing that automatically merges my pr after two approvals", "lgtm-bot"),
            ("robot that lands changes when reviews and ci are green", "lgtm-bot"),
            ("easy tickets reserved for newcomers to the codebase", "good-first"),
            ("where should a first time contributor start, the small labelled tasks", "good-first"),
            ("the penalty for restarting an argument about naming things", "bikeshed-jar"),
            ("you pay a donation if you reopen a settled naming debate", "bikeshed-jar"),
        ),
        ("how do i rebase without losing my commits", "is the website down for anyone else"),
    ),
    Server(
        "bakery team",
        (
            _term(
                "mother",
                "Mother",
                "The sourdough starter kept in the walk-in fridge, fed "
                "flour and water every morning before the first bake.",
            ),
            _term(
                "graveyard-shelf",
                "Graveyard Shelf",
                "The rack for yesterday's unsold loaves, sold at half price until noon.",
            ),
            _term(
                "proof-box",
                "Proof Box",
                "The warm, humid cabinet where shaped dough rises before it goes into the oven.",
            ),
        ),
        (
            ("the jar of fermented flour we feed every morning", "mother"),
            ("living yeast culture that makes our bread rise", "mother"),
            ("where day old bread goes for the half price sale", "graveyard-shelf"),
            ("rack of leftover loaves from yesterday", "graveyard-shelf"),
            ("warm steamy cabinet where the dough rises before baking", "proof-box"),
            ("the humid box for letting shaped loaves puff up", "proof-box"),
        ),
        ("what time does the delivery van arrive", "can someone swap my saturday shift"),
    ),
    Server(
        "ml research lab",
        (
            _term(
                "golden-set",
                "Golden Set",
                "Our 500 hand-checked prompts with reference "
                "answers; every checkpoint is scored on it before release.",
            ),
            _term(
                "big-red",
                "Big Red",
                "The lab's eight-GPU training server in the basement "
                "rack, booked through the shared calendar.",
            ),
            _term(
                "vibes-review",
                "Vibes Review",
                "The Friday session where everyone chats "
                "with the newest checkpoint and notes anything odd.",
            ),
        ),
        (
            ("our hand checked prompts with answers every checkpoint is scored on", "golden-set"),
            ("the internal eval list we run before shipping a model", "golden-set"),
            ("the basement machine with eight gpus you book on the calendar", "big-red"),
            ("which server do we use for training runs downstairs", "big-red"),
            ("friday meeting where we all chat with the newest model", "vibes-review"),
            ("informal session poking the latest checkpoint to see what feels off", "vibes-review"),
        ),
        ("who is bringing snacks to the seminar", "the printer on floor two is jammed again"),
    ),
    Server(
        "book club",
        (
            _term(
                "spoiler-line",
                "Spoiler Line",
                "The chapter number up to which everyone may "
                "talk freely this week; anything beyond it goes in hidden text.",
            ),
            _term(
                "wildcard-pick",
                "Wildcard Pick",
                "Once a quarter a random member chooses the book with no vote.",
            ),
        ),
        (
            ("how far in the book we are allowed to discuss this week", "spoiler-line"),
            ("the chapter past which you must hide what you write", "spoiler-line"),
            ("when someone random gets to choose the next book without voting", "wildcard-pick"),
            ("the quarterly turn where one member picks the read alone", "wildcard-pick"),
        ),
        ("where do i buy cheap secondhand paperbacks", "happy birthday marta"),
    ),
    Server(
        "esports team",
        (
            _term(
                "scrim-block",
                "Scrim Block",
                "The two-hour practice window each weeknight "
                "when the team plays matches against other teams.",
            ),
            _term(
                "tilt-timeout",
                "Tilt Timeout",
                "A ten-minute break any player may call after "
                "losing their temper, no questions asked.",
            ),
            _term(
                "vod-homework",
                "VOD Homework",
                "The recorded match each player must watch and "
                "comment on before the next practice.",
            ),
        ),
        (
            ("our nightly practice matches against other teams", "scrim-block"),
            ("the evening slot for playing friendly games versus other rosters", "scrim-block"),
            ("break you can call when you are getting angry and playing badly", "tilt-timeout"),
            ("ten minute cooldown after raging", "tilt-timeout"),
            ("the replay we have to watch and write notes on before practice", "vod-homework"),
            ("assigned match recording review", "vod-homework"),
        ),
        ("which energy drink has the least sugar", "my keyboard switches are squeaking"),
    ),
    Server(
        "hospital ward",
        (
            _term(
                "quiet-hour",
                "Quiet Hour",
                "From two to three in the afternoon the lights go "
                "down and no routine checks are done so patients can rest.",
            ),
            _term(
                "blue-folder",
                "Blue Folder",
                "The handover binder at the nurses' station "
                "listing every patient's open tasks for the next shift.",
            ),
        ),
        (
            ("the afternoon hour when lights are dimmed so patients can sleep", "quiet-hour"),
            ("rest period when we skip routine checks", "quiet-hour"),
            ("binder at the nurses station with each patient's open tasks", "blue-folder"),
            ("what do i read at shift change to know what is pending", "blue-folder"),
        ),
        ("the coffee machine in the break room is broken", "parking permits renew next week"),
    ),
    Server(
        "indie game studio",
        (
            _term(
                "jank-list",
                "Jank List",
                "The shared board of small visual glitches and odd "
                "behaviour that are not bugs enough to ticket but should be fixed.",
            ),
            _term(
                "crunch-credit",
                "Crunch Credit",
                "Extra days off owed to anyone who worked late during a release week.",
            ),
            _term(
                "greybox",
                "Greybox",
                "A level built from plain untextured blocks to test "
                "layout and flow before art is made.",
            ),
        ),
        (
            ("where we note little glitches that are too minor for a ticket", "jank-list"),
            ("board of weird small visual issues to polish later", "jank-list"),
            ("the days off you get back for working late before a launch", "crunch-credit"),
            ("time owed for overtime during release week", "crunch-credit"),
            ("a level made of plain blocks to try out the layout", "greybox"),
            ("untextured prototype map for testing flow before art", "greybox"),
        ),
        ("what is everyone playing this weekend", "steam sale starts thursday"),
    ),
    Server(
        "climbing gym",
        (
            _term(
                "reset-day",
                "Reset Day",
                "The Tuesday when setters strip the old routes and "
                "put up new ones; the bouldering wall is closed until six.",
            ),
            _term(
                "beta-board",
                "Beta Board",
                "The whiteboard by the desk where climbers sketch "
                "how they solved the hardest problems.",
            ),
        ),
        (
            ("the day the walls get new routes and the boulder area is shut", "reset-day"),
            ("when do the setters strip and replace the climbs", "reset-day"),
            ("whiteboard where people draw how they did the hard problems", "beta-board"),
            ("where climbers share solutions for tough routes", "beta-board"),
        ),
        ("lost my chalk bag near the lockers", "are the showers working today"),
    ),
    Server(
        "city cycling club",
        (
            _term(
                "sweep",
                "Sweep Rider",
                "The volunteer who rides at the very back of a group "
                "ride so nobody is left behind.",
            ),
            _term(
                "coffee-loop",
                "Coffee Loop",
                "The easy Sunday route of forty kilometres that ends at the café by the river.",
            ),
        ),
        (
            ("the person who rides last so no one gets dropped", "sweep"),
            ("volunteer at the back of the group ride", "sweep"),
            ("easy sunday ride that finishes at the cafe by the river", "coffee-loop"),
            ("the relaxed forty kilometre route with a coffee stop at the end", "coffee-loop"),
        ),
        ("what tyre pressure for wet roads", "selling my old helmet, size medium"),
    ),
    Server(
        "data engineering team",
        (
            _term(
                "red-dag",
                "Red DAG",
                "Any nightly pipeline that failed; the on-call person "
                "must rerun or explain it before the ten o'clock standup.",
            ),
            _term(
                "cold-table",
                "Cold Table",
                "A warehouse table nobody has queried for ninety "
                "days, flagged for archiving to cheap storage.",
            ),
        ),
        (
            ("a nightly pipeline that failed and needs a rerun before standup", "red-dag"),
            ("broken overnight job the on call has to explain", "red-dag"),
            ("warehouse table nobody has queried in months", "cold-table"),
            ("unused data flagged to be moved to cheap storage", "cold-table"),
        ),
        ("does anyone have the zoom link for the all hands", "vacation form is due friday"),
    ),
    Server(
        "language exchange",
        (
            _term(
                "switch-bell",
                "Switch Bell",
                "The bell rung every fifteen minutes in a "
                "session, when partners change which language they speak.",
            ),
            _term(
                "mistake-jar",
                "Mistake Jar",
                "Slips of paper with errors people made, read "
                "out and corrected together at the end of the evening.",
            ),
        ),
        (
            ("the signal to change which language we are speaking", "switch-bell"),
            ("every fifteen minutes something rings and we swap languages", "switch-bell"),
            ("collected errors we read out and fix together at the end", "mistake-jar"),
            ("slips of paper with mistakes people made during the evening", "mistake-jar"),
        ),
        ("best app for learning japanese kanji", "is the meetup still on despite the rain"),
    ),
    Server(
        "community garden",
        (
            _term(
                "plot-swap",
                "Plot Swap",
                "The spring meeting where members trade garden beds "
                "so everyone can move closer to the tap or the shade.",
            ),
            _term(
                "green-bin-duty",
                "Green Bin Duty",
                "The weekly turn of carrying everyone's weeds and clippings to the compost heap.",
            ),
        ),
        (
            ("spring meeting where we trade beds with each other", "plot-swap"),
            ("how do i move my bed nearer the water tap", "plot-swap"),
            ("whose turn is it to take the weeds to the compost", "green-bin-duty"),
            ("weekly chore of hauling clippings to the heap", "green-bin-duty"),
        ),
        ("tomatoes splitting after heavy rain, why", "anyone want spare zucchini"),
    ),
    Server(
        "support desk",
        (
            _term(
                "boomerang",
                "Boomerang",
                "A ticket that the customer reopens within a day of "
                "it being closed; counted against the agent's weekly score.",
            ),
            _term(
                "macro-shelf",
                "Macro Shelf",
                "The library of canned replies agents paste for "
                "common questions like password resets.",
            ),
            _term(
                "tier-jump",
                "Tier Jump",
                "Sending a ticket straight to engineering without "
                "going through second-line support, allowed only for outages.",
            ),
        ),
        (
            ("a ticket the customer reopens right after we close it", "boomerang"),
            ("closed case that comes back the next day", "boomerang"),
            ("the saved replies we paste for password resets and such", "macro-shelf"),
            ("collection of canned answers for common questions", "macro-shelf"),
            ("escalating straight to engineers skipping second line", "tier-jump"),
            ("when can i send a ticket directly to the developers", "tier-jump"),
        ),
        ("my headset mic is too quiet", "lunch order closes at eleven"),
    ),
    Server(
        "astronomy club",
        (
            _term(
                "dark-run",
                "Dark Run",
                "The monthly drive to the hilltop site on the night of "
                "the new moon, when the sky is darkest.",
            ),
            _term(
                "red-only",
                "Red Only",
                "The rule that every light at an observing session "
                "must be red so eyes stay adapted to the dark.",
            ),
        ),
        (
            ("monthly trip to the hill on the new moon night", "dark-run"),
            ("when do we drive out to the dark site", "dark-run"),
            ("why must every torch at the session be red", "red-only"),
            ("rule about lights so our night vision stays adapted", "red-only"),
        ),
        ("is it worth upgrading my tripod", "cloudy all week, typical"),
    ),
)
