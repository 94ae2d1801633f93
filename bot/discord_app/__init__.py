"""Discord is an adapter at the edge: commands, buttons and mentions over search and cards."""
