"""``d4cli balance``: the value of one setting that gives a side a target chance to win (docs/cli.md "Balance")."""

# No `from __future__ import annotations`: Typer reads the annotations on every run
# (see d4cli/cli/commands/roll.py).
import math
import sys
import time
from typing import Annotated

import typer

from d4cli.api import InputError
from d4cli.api.balance import DEFAULT_RUNS, MAX_WORK, Point, Vary, apply_balance, balance
from d4cli.api.inputs import parse_whole
from d4cli.api.tracker import Tracker
from d4cli.cli.exit_codes import ExitCode
from d4cli.cli.options import FileArgument, FileOption, JsonOption
from d4cli.cli.sim_input import one_file, played_encounter, seed_of
from d4cli.cli.tracker_access import open_tracker, tell
from d4cli.output.render.balance_text import balance_svg, print_balance
from d4cli.output.serialize.balance_json import balance_json
from d4cli.output.stdout import emit_json

FORMATS = ("table", "svg")
# A search whose first value says it will take longer than this says so first.
LONG_SECONDS = 3.0
STOPPED = "balance stopped by Ctrl-C: nothing was written"


def balance_command(
    file: FileArgument = None,
    wins: Annotated[
        str | None,
        typer.Option(
            "--wins",
            metavar="SIDE=PERCENT",
            help="The side and the chance to win sought, 0..100: party=60.",
        ),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            metavar="CREATURE:FIELD=A..B",
            help="The setting to search: hp, max_hp, evasion, load_buffer, exhaustion, aspect.NAME or count, over A..B.",
        ),
    ] = None,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="EXAMPLE|PATH",
            help="Search a bundled example (skirmish, duel, ambush) or another file instead (not with --apply).",
        ),
    ] = None,
    runs: Annotated[
        str | None,
        typer.Option(
            "--runs", metavar="N", help=f"Fights per value played (default {DEFAULT_RUNS:,})."
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(
            "--seed",
            metavar="N",
            help="Seed of the dice, the same for every value: the same seed gives the same answer.",
        ),
    ] = None,
    apply: Annotated[
        bool,
        typer.Option(
            "--apply",
            help="Write the value found to the encounter file: one change, undo takes it back.",
        ),
    ] = False,
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="table|svg",
            help="Output for people, or the curve as SVG on stdout.",
        ),
    ] = "table",
    json_: JsonOption = False,
    file_option: FileOption = None,
) -> None:
    """Find a setting's value that gives a side a target chance to win.

    Each value is played from the encounter as it stands, in its own mode.
    Every value gets the same seed, so neighbours meet the same dice.
    The search: bisection over the range, then the neighbours ('help simulate').
    Nothing is written unless --apply; Ctrl-C stops it, nothing written.

    Example: d4cli balance --wins party=60 --vary "Goblin Chief:hp=5..40"
    """
    side, target = _wins(wins)
    setting = _vary(vary)
    count = DEFAULT_RUNS if runs is None else parse_whole(runs, "--runs", (1, MAX_WORK))
    number = seed_of(seed)
    if format_ not in FORMATS:
        raise InputError("--format", format_, "must be table or svg")
    if json_ and format_ != "table":
        raise InputError("--json", None, f"--json and --format {format_} ask for two formats")
    path = one_file(file, file_option)
    if apply and from_ is not None:
        raise InputError("--apply", None, "writes to an encounter file; give FILE, not --from")
    tracker = open_tracker(path) if apply else None
    encounter = played_encounter(path, from_) if tracker is None else tracker.status()
    timer = _Timer(count)
    try:
        found = balance(
            encounter,
            setting,
            side,
            target,
            runs=count,
            seed=number,
            on_value=timer,
        )
    except KeyboardInterrupt:
        sys.stderr.write(f"d4cli: {STOPPED}\n")
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    changed = _apply(tracker, found.vary, found.search.found.value)
    if json_:
        emit_json(balance_json(found, applied=changed is not None))
        return
    report = balance_json(found, applied=changed is not None)
    if format_ == "svg":
        sys.stdout.write(balance_svg(report) + "\n")
    else:
        print_balance(report, changed)


def _apply(tracker: Tracker | None, setting: Vary, value: int) -> str | None:
    """``--apply``: write *value* as one change; the file's name when written, else None (and
    a note on stderr saying the file holds it already)."""
    if tracker is None:
        return None
    change = apply_balance(tracker, setting, value)
    if change is None or not change.written:
        sys.stderr.write(
            f"d4cli: note: the file holds {setting.field} = {value} already: nothing written\n"
        )
        return None
    tell(change, tracker)
    return str(tracker.path)


class _Timer:
    """After the first value played: says on stderr how long the search will take, when that is long."""

    def __init__(self, runs: int) -> None:
        self.runs = runs
        self.started = time.monotonic()

    def __call__(self, point: Point, played: int, most: int) -> None:
        if played != 1:
            return
        elapsed = time.monotonic() - self.started
        if elapsed * most > LONG_SECONDS:
            sys.stderr.write(
                f"d4cli: balance plays up to {most} values of {self.runs:,} fights: about "
                f"{math.ceil(elapsed * most)} s (Ctrl-C stops it, nothing written)\n"
            )
            sys.stderr.flush()


def _wins(text: str | None) -> tuple[str, float]:
    """``party=60`` -> ("party", 0.6).

    Raises:
        InputError: naming ``--wins``: missing, not SIDE=PERCENT, a percent outside 0..100.
    """
    if text is None:
        raise InputError("--wins", None, "give the side and the chance sought, such as party=60")
    side, sign, share = text.rpartition("=")
    if not sign or not side.strip():
        raise InputError("--wins", text, "must be SIDE=PERCENT, such as party=60")
    try:
        value = parse_whole(share.strip().removesuffix("%"), "--wins", (0, 100))
    except InputError:
        raise InputError(
            "--wins", text, "the chance must be a whole percent within 0..100"
        ) from None
    return side.strip(), value / 100


def _vary(texts: list[str] | None) -> Vary:
    """The one ``--vary``, read by `Vary.parse`.

    Raises:
        InputError: naming ``--vary``: none or more than one, or what `Vary.parse` refuses.
    """
    if not texts:
        raise InputError(
            "--vary", None, "give the setting to search, such as 'Goblin Brute:hp=5..40'"
        )
    if len(texts) > 1:
        raise InputError("--vary", texts[1], "give one --vary: balance searches one setting")
    return Vary.parse(texts[0])
