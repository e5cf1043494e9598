"""The one table from the fields the library names in its errors to this shell's options.

The library (`d4cli.api` and the core under it) names the keyword arguments and record
fields it was given: ``dc/evasion: give a DC or an Evasion, not both``. The shell says the
same error with the options that give those fields: ``--dc/--evasion: ...``
(`d4cli.rules.errors.InputError.render`, applied where the shell prints an error,
`d4cli.cli.root`). A field not in `FLAG_OF` is shown as the library names it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from d4cli.api import D4Error

# Each field -> the option (or argument) that gives it. Where commands spell one field
# differently, the entry maps command paths (``roll check``) to the spelling, "" to the
# one of every other command; a command in none of them shows the field's own name.
FLAG_OF: Mapping[str, str | Mapping[str, str]] = {
    "add": "--add",  # `next --add "goblin x3"`: a foe from the bestiary
    "advantage": "--adv",  # sources of Advantage (R4); a check's level is `advantage_level`
    "advantage_level": "--advantage",
    "amount": "N",  # `damage`/`heal` N|EXPR: dice to roll
    "after": "--after",
    "as": "--as",  # `bestiary save NAME --as ENTRY`
    # `roll pool ASPECT`, `act NAME ASPECT`; the options of a Team Action and of a named action
    "aspect": {"": "ASPECT", "team": "--aspect", "action add": "--aspect"},
    "aspects": "--aspect",
    "attribute": "--attribute",
    "attributes": "--attribute",
    "before": "--before",
    "copies": "--count",
    "cost": "--cost",
    "dc": "--dc",
    # sources of Disadvantage in a pool (R4), a count of Disadvantages in a d20 check (C4)
    "disadvantage": {
        "": "--dis",
        "roll check": "--disadvantage",
        "check": "--disadvantage",
        "odds check": "--disadvantage",
        "odds compare": "--disadvantage",
    },
    "disadvantage_sources": "--dis",
    "end_of": "--until-end-of",
    "engine": "--engine",  # `simulate`, `forecast`: which engine plays (d4cli.sim.engines)
    "evasion": "--evasion",
    "extra": "--extra",
    "faces": "--faces",
    "force": "--force",
    "from": "--from",  # a bestiary entry or a template (`add`, `init`, `next`)
    "gm": "--gm",
    "grant": "--adv/--dis",
    "hp": "--hp",
    "keep": "--keep",  # `next --keep SIDE`
    "jobs": "--jobs",  # `simulate`: processes, or pieces at once on a cluster
    "ignore_load": "--ignore-load",
    "like": "--like",
    "load": {"roll pool": "--load"},  # a pool's Load (R2); an act reads the creature's
    "max_hp": "--max-hp",
    "max_rounds": "--max-rounds",
    "mode": {"": "--mode", "simulate": "--modes"},
    "modes": "--modes",  # `simulate`: the reset modes played
    "name": {"init": "--name", "next": "--name", "action add": "ACTION"},
    # the creatures of a change of several (`damage NAME... N`, `effect add CREATURE... SOURCE`)
    "names": {"": "NAME", "effect add": "CREATURE"},
    "number": {"approve": "N", "deny": "N"},  # a seat's request (`SeatDesk.approve`, `deny`)
    "odds": "--odds",
    "pool_sizes": "--pool",
    "proficiencies": "--proficiency",
    "proficiency": "--proficiency",
    "reason": {"deny": "--reason"},
    "reserve": "--reserve",  # `simulate`: every creature's reserved headroom
    "round_reset": "--round-reset",
    "rounds": "--rounds",
    "runs": "--runs",
    "scheduler": "--scheduler",
    "seed": "--seed",
    "seq": "--at",
    # `add --side`, `effect add --side`: the simulator's `side` is each creature's, in the file
    "side": {"add": "--side", "effect add": "--side"},
    "source": "--source",
    "specialization": "--specialization",
    "specializations": "--specialization",
    "start_at": "--from-seq",
    "start_of": "--until-start-of",
    "sweep": "--sweep",
    "target": {"": "--target", "simulate": "--target-rule"},
    "template": "--from",
    "times": "--times",
    "uses": "--uses",
    "vary": "--vary",
    "wins": "--wins",
}


# Commands whose words are the library's own field names (``set NAME hp=5``), or that carry
# out what another front end sent (``approve N``: a seat's request, its fields as the seat
# named them): their errors name each field as named, or as their own entry spells it,
# never as some other command's option.
AS_TYPED: frozenset[str] = frozenset({"set", "approve"})


def flag_of(field: str, command: Sequence[str] = ()) -> str:
    """The option that gives *field* in the command line *command* (its words, without
    ``d4cli``: ``["roll", "check", ...]``), or *field* itself when none does.

    >>> flag_of("ignore_load"), flag_of("disadvantage", ["roll", "check"]), flag_of("line")
    ('--ignore-load', '--disadvantage', 'line')
    """
    typed = bool(command[:1]) and command[0] in AS_TYPED
    entry = FLAG_OF.get(field, field)
    if isinstance(entry, str):
        return field if typed else entry
    # A command is one word (`act`) or a group and one of its commands (`roll check`).
    for path in (" ".join(command[:2]), " ".join(command[:1])) + (() if typed else ("",)):
        if path in entry:
            return entry[path]
    return field


def shell_message(error: D4Error, command: Sequence[str] = ()) -> str:
    """*error*'s message as the shell says it: each field it names spelt as *command*'s option."""
    return error.render(lambda field: flag_of(field, command))
