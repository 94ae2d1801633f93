"""Discord is an adapter at the edge: commands, buttons and mentions over search and cards.

- `app`: the bot (`commands.Bot`); loads the cogs in `setup_hook`, drains work on stopping.
- `cogs/`: one cog per command family, each given the bot's state, registered in
  `cogs.add_cogs` only: `define` (/define, its autocomplete, mentions), `explain` ("Explain
  terms"), `about` (/glossary about), `aliases` (/alias), `stats` (/stats and its miss -> alias
  menu), `terms` (/term: a server's own terms, and `term_log` its /term log pages),
  `suggestions` (/suggest and the "Suggest it" button); `moderators` holds what the moderator
  commands share.
- `replies`: `reply_for` turns a search result into the message to send, and the card's buttons
  and menus (dynamic items, rebuilt from their custom ids by `items.Restorable`) call it back.
- `state`: what the running bot knows (glossary, index, store, counts); `alias_cache`: each
  server's glossary with its terms and compiled aliases, kept on each server's own version in
  the store, bounded in count and weight; `term_drafts`: the term forms open; `cooldowns`:
  per-user limits; `member_searches`: the search of what members write (mentions, replies,
  Explain terms) off the event loop, in one worker thread, each server taking its turn.
- `choices`: autocomplete choices cut to Discord's limits, for every autocomplete;
  `lateness`: which autocomplete requests nobody will see answered (too late, or typed on).
- `command_permissions`: who may use a command (Integrations overrides, default permissions),
  for menus that act like one (the /stats menu asks what `/alias` asks).
- `errors`, `logs`, `health`, `metrics`, `identify`, `runner`, `cli`: answering errors, logging,
  the heartbeat's writer (`bot.heartbeat` reads it for `glossary-bot health`), Prometheus,
  IDENTIFY shared across processes, the process.
- `compat`: what discord.py cannot read of what Discord sends, mended at import; a gateway
  event it still cannot read is skipped (one line for each kind of fault), not the end of the
  connection.
"""
