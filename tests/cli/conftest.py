from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
