"""Rich rendering of the rules reference (``d4cli help``)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from d4cli.helptext import Topic


def render_index(topics: dict[str, Topic]) -> Table:
    """The list of topics with their rule ids."""
    table = Table(title="d4cli help TOPIC", title_justify="left")
    table.add_column("Topic", style="bold", no_wrap=True)
    table.add_column("About")
    table.add_column("Rules", style="cyan")
    for key, topic in topics.items():
        table.add_row(key, topic.title, topic.rules)
    return table


def render_topic(key: str, topic: Topic) -> Group:
    """One topic: title, rule ids, explanation and worked example."""
    return Group(
        Text(f"{topic.title}  [{topic.rules}]", style="bold"),
        Text(""),
        Text(topic.body),
        Text(""),
        Text("Example", style="bold"),
        Text(topic.example),
    )
