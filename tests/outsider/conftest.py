"""The outside tests: the real bot process against the fake Discord, as users drive it."""

from tests.resilience.conftest import (  # noqa: F401  (fixtures)
    Scene,
    bot,
    fake_discord,
    glossary,
    scene,
    start_bot,
    store,
)
