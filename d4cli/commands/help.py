"""``d4cli help [TOPIC]``: the rules reference, with worked examples and rule ids."""

from __future__ import annotations

from typing import Annotated

import typer

from d4cli.commands.common import JsonOption, emit_json
from d4cli.completion import complete_topic


def register(app: typer.Typer) -> None:
    app.command("help")(help_command)


def help_command(
    topic: Annotated[str | None, typer.Argument(metavar="[TOPIC]", help="A topic; none lists them.", autocompletion=complete_topic)] = None,
    json_: JsonOption = False,
) -> None:
    """Explain the rules: the gate, the pool, Advantage, Load, checks ... (R1-R17, C1-C7).

    Example: d4cli help gate
    """
    from d4cli.errors import InputError
    from d4cli.helptext import TOPICS

    key = None if topic is None else topic.strip().lower()
    if key is not None and key not in TOPICS:
        raise InputError("TOPIC", topic, "unknown topic; one of " + ", ".join(TOPICS))
    if json_:
        chosen = TOPICS if key is None else {key: TOPICS[key]}
        from d4cli.serialize import help_json

        emit_json(help_json(chosen))
        return
    from d4cli.render import console
    from d4cli.render.helptext import render_index, render_topic

    out = console()
    out.print(render_index(TOPICS) if key is None else render_topic(key, TOPICS[key]))
