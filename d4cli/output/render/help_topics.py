"""Rich rendering of the rules reference (``d4cli help``)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from d4cli.output.rules_reference import Rule, Topic


def render_index(topics: dict[str, Topic], rules: dict[str, Rule]) -> Group:
    """The list of topics with their rule ids, then every rule by id and title."""
    table = Table(title="d4cli help TOPIC", title_justify="left")
    table.add_column("Topic", style="bold", no_wrap=True)
    table.add_column("About")
    table.add_column("Rules", style="cyan")
    for key, topic in topics.items():
        table.add_row(key, topic.title, topic.rules)
    by_id = Table(title="d4cli help RULE-ID (docs/rules.md)", title_justify="left")
    by_id.add_column("Rule", style="cyan", no_wrap=True)
    by_id.add_column("Title")
    for rule in rules.values():
        by_id.add_row(rule.id, rule.title)
    return Group(table, Text(""), by_id)


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


def render_rule(rule: Rule) -> Group:
    """One rule: id and title, its statement and its worked example."""
    return Group(
        Text(f"{rule.id}  {rule.title}", style="bold"),
        Text(""),
        Text(rule.text),
        Text(""),
        Text("Example", style="bold"),
        Text(rule.example),
    )
