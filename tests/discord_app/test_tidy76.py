"""tidy76 item 4: a title in bold mid-line has one home, `replies.bold_title`, where
`cards.embed.shown_name` and `replies.echo_name` each made it (tests/outsider/PLAN.md, "## tidy76")."""

from __future__ import annotations

from bot.cards.embed import shown_name
from bot.discord_app.replies import bold_title, echo_name
from bot.glossary import load_glossary

# Titles a server may hold that Markdown would read ("A* Search" italicises, "#define" heads a
# line, "Zorb_Lax" and "x*y*z" emphasise), and plain ones.
SERVER_TITLES = ("A* Search", "#define", "> Quoted", "- Dashed", "Zorb_Lax", "x*y*z", "C++", "RAG")


def test_a_bold_title_is_what_either_route_showed() -> None:
    """Each caller's output is unchanged: every bundled title and a server's markup-like ones
    come out as `shown_name(…, mid_line=True)` and `echo_name(…, mid_line=True)` made them."""
    titles = {t for e in load_glossary() for t in (e.title, e.display_title)}
    for title in sorted(titles | set(SERVER_TITLES)):
        assert bold_title(title) == f"**{shown_name(title, mid_line=True)}**", title
        assert bold_title(title) == f"**{echo_name(title, mid_line=True)}**", title


def test_a_long_title_is_shown_whole() -> None:
    """A title past `echo`'s 100 characters (a title holds up to 256) is shown whole, as
    `shown_name` showed it: `echo_name` cut it in the middle."""
    title = "Zorb " * 30 + "Engine"
    assert bold_title(title) == f"**{shown_name(title, mid_line=True)}**"
