"""``d4cli bestiary [save NAME]``: the GM's own creatures and templates (docs/evening.md)."""

# No `from __future__ import annotations`: Typer reads these annotations on every run
# (see d4cli/cli/commands/roll.py).
from typing import Annotated

import typer

from d4cli.api.bestiary import Bestiary
from d4cli.cli.bestiary_place import bestiary_folder
from d4cli.cli.completion.creatures import complete_creature
from d4cli.cli.options import FileOption, JsonOption
from d4cli.cli.tracker_access import open_tracker
from d4cli.output.render import escape
from d4cli.output.render.entry_lines import print_lines
from d4cli.output.render.evening_tables import print_bestiary
from d4cli.output.serialize.evening_json import bestiary_json, saved_json
from d4cli.output.stdout import emit_json

app = typer.Typer(
    help="Your creatures and templates, kept between evenings.\n\n"
    "The folder is D4CLI_BESTIARY, else 'bestiary' in your config folder.",
)


@app.callback(invoke_without_command=True)
def list_command(ctx: typer.Context, json_: JsonOption = False) -> None:
    """List your bestiary: its creatures (creatures/NAME.toml) and templates (NAME.toml).

    The folder is D4CLI_BESTIARY, else 'bestiary' in your config folder. A file
    that cannot be read is named with its line on stderr; the others are still
    listed.

    Example: d4cli bestiary
    """
    if ctx.invoked_subcommand is not None:
        return
    obj = bestiary_json(Bestiary(bestiary_folder()).listing())
    if json_:
        emit_json(obj)
    else:
        print_bestiary(obj)


@app.command("save")
def save_command(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME", help="A creature of the encounter.", autocompletion=complete_creature
        ),
    ],
    as_: Annotated[
        str | None,
        typer.Option("--as", metavar="ENTRY", help="The entry's name (default: NAME)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an entry of that name.")] = False,
    file: FileOption = None,
    json_: JsonOption = False,
) -> None:
    """Keep creature NAME of the encounter in your bestiary, unhurt, as entry ENTRY.

    Example: d4cli bestiary save "Goblin Archer" --as goblin-archer
    """
    encounter = open_tracker(file).status()
    path = Bestiary(bestiary_folder()).save(encounter, name, as_, force=force)
    if json_:
        emit_json(saved_json(name, path))
    else:
        print_lines(
            [
                f"[bold]{escape(name)}[/] kept in your bestiary as {escape(path.stem)} ({escape(str(path))})"
            ]
        )
