"""Numbered forward migrations, `V{n}__{name}.sql`, applied in order at open."""
