"""`python -m bot`: the `glossary-bot` program (bot/entry.py), as the installed script runs it."""

from bot.entry import main

raise SystemExit(main())
