"""``d4cli help [TOPIC | RULE-ID]``: the rules reference, with worked examples and rule ids."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).

from collections.abc import Iterable
from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.cli.completion import complete_topic
from d4cli.cli.options import JsonOption
from d4cli.output.render import console
from d4cli.output.render.help_topics import render_index, render_rule, render_topic
from d4cli.output.rules_reference import TOPICS, rule_key
from d4cli.output.ruletext import RULES
from d4cli.output.serialize.encounter_json import help_json
from d4cli.output.stdout import emit_json


def help_command(
    topic: Annotated[
        str | None,
        typer.Argument(
            metavar="[TOPIC|RULE-ID]",
            help="A topic, or a rule id such as R14; none lists them.",
            autocompletion=complete_topic,
        ),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Explain the rules, or one rule by its id (help R14).

    Topics: the gate, the pool, Advantage, Load, checks ...; rule ids: R1-R20,
    C1-C8, L1-L4, N1.

    Example: d4cli help gate; d4cli help R14
    """

    key = None if topic is None else topic.strip().lower()
    rule_id = None if topic is None else rule_key(topic)
    if rule_id is not None and rule_id not in RULES:
        raise InputError("RULE-ID", topic, "no such rule; the rules are " + _rule_ranges(RULES))
    if key is not None and rule_id is None and key not in TOPICS:
        raise InputError(
            "TOPIC",
            topic,
            "unknown topic; one of " + ", ".join(TOPICS) + ", or a rule id such as R14",
        )
    if json_:
        if rule_id is not None:
            emit_json(help_json({}, [RULES[rule_id]], topics_key=False))
            return
        chosen = TOPICS if key is None else {key: TOPICS[key]}

        emit_json(help_json(chosen, RULES.values() if key is None else ()))
        return

    out = console()
    if rule_id is not None:
        out.print(render_rule(RULES[rule_id]))
    elif key is None:
        out.print(render_index(TOPICS, RULES))
    else:
        out.print(render_topic(key, TOPICS[key]))


def _rule_ranges(rules: Iterable[str]) -> str:
    """``R1-R20, C1-C8, L1-L4, N1``: the ids of *rules*, one range per letter."""
    numbers: dict[str, list[int]] = {}
    for rule_id in rules:
        numbers.setdefault(rule_id[0], []).append(int(rule_id[1:]))
    parts = []
    for letter, found in numbers.items():
        low, high = min(found), max(found)
        parts.append(f"{letter}{low}" if low == high else f"{letter}{low}-{letter}{high}")
    return ", ".join(parts)
