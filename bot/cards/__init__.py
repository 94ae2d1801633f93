"""Cards: how an entry looks, in Discord (embed and buttons) and in a terminal. Pure functions."""
