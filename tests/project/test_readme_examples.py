"""README's examples, run as a reader types them, checked against what they print.

The console examples run in order on a fresh folder (the rolls first, then the encounter
from its ``init --from skirmish`` on; the odds grids, which read no file, come last), each
with ``D4CLI_SEED=7``. Each one exits as its README comment says (``exit 3``, else 0)
and prints the figures pinned in `EXAMPLES`: in its table or line, and in its ``--json``
object (the same commands again, each with ``--json``, in a second folder: the seed gives
every command the same dice either way).
The ``d4cli play`` transcript shows the prompts and lines a session prints, and the
error lines README and docs/file-format.md quote for a damaged file are the lines d4cli
prints.

When an example in README changes, its entry in `EXAMPLES` changes with it: every
console example has one, and every entry is an example README shows.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import tomli_w
from _cli import ok, run

README = Path(__file__).resolve().parents[2] / "README.md"
FILE_FORMAT = README.parent / "docs" / "file-format.md"
SEED = {"D4CLI_SEED": "7"}

# ```console blocks (the fence may carry trailing spaces; CRLF line ends are read as LF).
CONSOLE = re.compile(r"^```console[ \t]*\n(.*?)^```", re.S | re.M)
PROMPT = re.compile(r"^(\[[^\]\n]*\] d4cli> )(.*)$")


@dataclass(frozen=True)
class Example:
    """One ``$ d4cli ...`` line of README: the command as its words rejoin, and its exit code."""

    command: str
    words: tuple[str, ...]
    code: int
    comment: str


def _readme() -> str:
    return README.read_text(encoding="utf-8").replace("\r\n", "\n")


def _split_comment(line: str) -> tuple[str, str]:
    """*line* cut at its first ``#`` that starts a shell comment (outside quotes, after a blank)."""
    quote = None
    for index, char in enumerate(line):
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip(), line[index + 1 :].strip()
    return line.rstrip(), ""


def console_examples() -> list[Example]:
    """Every ``$ d4cli ...`` line of README's console blocks but ``d4cli play``, in order.

    A comment on the line (and on the indented comment lines under it) is the
    example's comment; ``exit N`` in it is the exit code README promises, else 0.
    """
    examples: list[Example] = []
    for block in CONSOLE.findall(_readme()):
        for line in block.splitlines():
            if (
                examples and line[:1].isspace() and line.strip().startswith("#")
            ):  # the comment goes on
                last = examples[-1]
                examples[-1] = Example(
                    last.command,
                    last.words,
                    last.code,
                    f"{last.comment} {line.strip()[1:].strip()}".strip(),
                )
                continue
            if not line.startswith("$ d4cli "):
                continue
            text, comment = _split_comment(line[2:])
            words = tuple(shlex.split(text))[1:]
            if words[:1] == ("play",):
                continue
            found = re.search(r"\bexit (\d+)\b", comment)
            examples.append(
                Example(
                    shlex.join(("d4cli", *words)), words, int(found[1]) if found else 0, comment
                )
            )
    return examples


def play_transcript() -> list[tuple[str, str, list[str]]]:
    """README's ``d4cli play`` session: ``(prompt, line typed, lines shown after it)``.

    ``...`` among the lines shown stands for output left out.
    """
    steps: list[tuple[str, str, list[str]]] = []
    for block in CONSOLE.findall(_readme()):
        lines = block.splitlines()
        starts = [index for index, line in enumerate(lines) if line.strip() == "$ d4cli play"]
        for line in lines[starts[0] + 1 :] if starts else []:
            if line.startswith("$ "):
                break
            prompt = PROMPT.match(line)
            if prompt:
                steps.append((prompt[1], prompt[2], []))
            elif steps:
                steps[-1][2].append(line)
    return steps


# --- what each example prints --------------------------------------------------------------


@dataclass(frozen=True)
class Shows:
    """What one example prints with ``D4CLI_SEED=7`` after the examples before it.

    *lines*: whole lines of stdout; *rows*: a table row (its cells, left to right) by one
    of its cells; *stderr*: the whole of stderr; *json*: values of its ``--json`` object by
    key (``a.b.0`` reaches into objects and lists).
    """

    lines: tuple[str, ...] = ()
    rows: dict[str, list[str]] = field(default_factory=dict)
    stderr: str | None = None
    json: dict[str, object] = field(default_factory=dict)


DICE = [3, 2, 4, 1, 1]  # what D4CLI_SEED=7 rolls for the first five d4 of any command
STEPS = ["Step", "What happened", "Rule"]

EXAMPLES: dict[str, Shows] = {
    # --- Rolling
    "d4cli roll pool 4 --adv torch --adv advice --dis darkness": Shows(
        rows={
            "Advantage": ["Advantage", "+2: torch, advice", "R4"],
            "Disadvantage": ["Disadvantage", "-1: darkness", "R4"],
            "Pool": ["Pool", "4 +1 = 5d4", "R5"],
            "5d4": ["5d4", "3 + 2 + 4 + 1 + 1 = 11", "R7"],
            "Load after": ["Load after", "0 + Cost 1 = 1", "R8"],
        },
        json={
            "pool_size": 5,
            "net_advantage": 1,
            "advantage": ["torch", "advice"],
            "disadvantage": ["darkness"],
            "dice": DICE,
            "total": 11,
            "load_after": 1,
        },
    ),
    "d4cli roll pool 6 --load 2 --extra 1d4 --evasion 11": Shows(
        rows={
            "Gate": ["Gate", "Aspect 6 - Load 2 = headroom 4 >= Cost 1: allowed", "R2"],
            "4d4": ["4d4", "3 + 2 + 4 + 1 = 10", "R7"],
            "Extra 1d4": ["Extra 1d4", "1", "R6"],
            "Total": ["Total", "11", "R7"],
            "Evasion 11": ["Evasion 11", "max(0, 11 - 11) = 0 damage", "R7"],
        },
        json={
            "pool_size": 4,
            "dice": DICE[:4],
            "extra": [{"notation": "1d4", "dice": [1], "modifier": 0}],
            "total": 11,
            "evasion": 11,
            "damage": 0,
            "load_after": 3,
        },
    ),
    "d4cli roll pool 2 --load 1 --cost 2": Shows(
        rows={
            "Gate": ["Gate", "Aspect 2 - Load 1 = headroom 1 < Cost 2: refused, short by 1", "R2"],
            "Load": ["Load", "stays 1: nothing was rolled", "R2"],
        },
        stderr="d4cli: refused by the gate (R2): headroom 1 < Cost 2, short by 1\n",
        json={
            "allowed": False,
            "headroom": 1,
            "shortfall": 1,
            "pool_size": None,
            "dice": [],
            "total": None,
            "load_after": 1,
        },
    ),
    "d4cli roll check --attribute 3 --advantage 2 --dc hard --rule-of-three": Shows(
        rows={
            "Natural d20": ["Natural d20", "11", "C1"],
            "Advantage": ["Advantage", "Level 2: d6s 2, 4 -> highest 4 = +4", "C3"],
            "Result": ["Result", "18", "C1"],
            "DC 18 (hard)": ["DC 18 (hard)", "18 beats by 0: succeeds", "C2"],
        },
        json={
            "natural": 11,
            "advantage_dice": [2, 4],
            "advantage_bonus": 4,
            "total": 18,
            "dc": 18,
            "margin": 0,
            "success": True,
            "outcome": "success",
            "rule_of_three": True,
        },
    ),
    "d4cli roll pool 5 --dc 12 --odds": Shows(
        lines=(
            "Odds of 5d4 (exact): totals 5..20, mean 12.5",
            "Chance of success (total >= DC 12): 65.14% = 667/1024 (R7)",
        ),
        rows={
            "5d4": ["5d4", "3 + 2 + 4 + 1 + 1 = 11", "R7"],
            "DC 12": ["DC 12", "11 < 12: failure", "R7"],
        },
        json={
            "dice": DICE,
            "total": 11,
            "success": False,
            "odds.p_success": 0.6513671875,
            "odds.p_success_exact": "667/1024",
            "odds.mean": 12.5,
            "odds.distribution.12": 155 / 1024,
        },
    ),
    # --- Odds for designers
    "d4cli odds pool --aspect 1..8 --dc 4..20/2 --format markdown": Shows(
        lines=(
            "| Aspect (pool) | DC 4 | DC 6 | DC 8 | DC 10 | DC 12 | DC 14 | DC 16 | DC 18 | DC 20 |",
            "| 1 (1d4) | 25.0% | 0.0% | 0.0% | 0.0% | 0.0% | 0.0% | 0.0% | 0.0% | 0.0% |",
            "| 5 (5d4) | 100.0% | 99.9% | 97.9% | 88.2% | 65.1% | 34.9% | 11.8% | 2.1% | 0.1% |",
            "| 8 (8d4) | 100.0% | 100.0% | 100.0% | >99.9% | 99.7% | 98.1% | 92.2% | 78.2% | 56.2% |",
        ),
    ),
    "d4cli odds check --dc easy,medium,hard,challenging --format csv": Shows(
        lines=(
            "label,advantage_level,disadvantage,dc=6,dc=12,dc=18,dc=24,dc=6 exact,dc=12 exact,dc=18 exact,dc=24 exact,title,modifiers",
            'no Advantage,0,0,0.75,0.45,0.15,0.025,3/4,9/20,3/20,1/40,"Chance of success of a d20 Action Roll: natural 1 fails, crit d6 on 20 (C1-C6)",0',
            'Adv 2,2,0,0.9305555555555556,0.675,0.375,0.09328703703703704,67/72,27/40,3/8,403/4320,"Chance of success of a d20 Action Roll: natural 1 fails, crit d6 on 20 (C1-C6)",0',
            '"Adv 1, Dis 1 (= Adv 0)",1,1,0.75,0.45,0.15,0.025,3/4,9/20,3/20,1/40'
            ',"Chance of success of a d20 Action Roll: natural 1 fails, crit d6 on 20 (C1-C6)",0',
        ),
    ),
    "d4cli odds damage --pool 1..10 --evasion 0..12/2": Shows(
        rows={
            "Pool": ["Pool", *(f"Evasion {e}" for e in range(0, 13, 2))],
            "5d4": ["5d4", "12.50", "10.50", "8.50", "6.50", "4.53", "2.70", "1.27"],
            "10d4": ["10d4", "25.00", "23.00", "21.00", "19.00", "17.00", "15.00", "13.00"],
        },
        json={
            "columns": [0, 2, 4, 6, 8, 10, 12],
            "rows.4.label": "5d4",
            "rows.4.values": [12.5, 10.5, 8.5, 6.5009765625, 4.52734375, 2.7001953125, 1.265625],
        },
    ),
    "d4cli odds compare --dc 6..30/2": Shows(
        rows={
            "Aspect 5 (5d4)": [
                "Aspect 5 (5d4)",
                "99.9%",
                "97.9%",
                "88.2%",
                "65.1%",
                "34.9%",
                "11.8%",
                "2.1%",
                "0.1%",
                "0.0%",
                "0.0%",
                "0.0%",
                "0.0%",
                "0.0%",
            ],
            "d20+3": [
                "d20+3",
                "90.0%",
                "80.0%",
                "70.0%",
                "60.0%",
                "50.0%",
                "40.0%",
                "30.0%",
                "20.0%",
                "10.0%",
                "5.0%",
                "3.3%",
                "1.7%",
                "0.0%",
            ],
        },
        json={
            "columns": list(range(6, 31, 2)),
            "rows.3.label": "Aspect 5 (5d4)",
            "rows.3.values.3": 0.6513671875,
            "rows.8.label": "d20+3",
            "rows.8.values.3": 0.6,
        },
    ),
    # --- Playing an encounter
    "d4cli init --from skirmish": Shows(
        json={
            "name": "Skirmish at the old mill",
            "mode": "turn",
            "round": 0,
            "from": "skirmish",
            "creatures": 4,
        },
    ),
    "d4cli turn start": Shows(
        lines=("round 1 begins; Aria's turn; Load -1 -> -1 (reset, R1)",),
        json={
            "round": 1,
            "actor": "Aria",
            "new_round": True,
            "next": "Borin",
            "resets": [{"name": "Aria", "load_before": -1, "load_after": -1}],
        },
    ),
    "d4cli act Aria Finesse --extra 1d4 --target 'Goblin Archer'": Shows(
        lines=("Aria: Finesse", "Goblin Archer: HP 7 -> 6 (R16)"),
        rows={
            "4d4": ["4d4", "3 + 2 + 4 + 1 = 10", "R7"],
            "Total": ["Total", "11", "R7"],
            "Evasion 10": ["Evasion 10", "max(0, 11 - 10) = 1 damage", "R7"],
            "Load after": ["Load after", "-1 + Cost 1 = 0", "R8"],
        },
        json={
            "dice": DICE[:4],
            "total": 11,
            "damage": 1,
            "hp_before": 7,
            "hp_after": 6,
            "load_before": -1,
            "load_after": 0,
            "off_turn": False,
        },
    ),
    "d4cli team Borin Aria --adv --aspect Wits": Shows(
        rows={
            "Grant": ["Grant", "Aria's next roll: advantage 'team action'", "R11"],
            "Load after": ["Load after", "-2 + Cost 1 = -1", "R8"],
        },
        json={
            "actor": "Borin",
            "target": "Aria",
            "grant": "advantage",
            "source": "team action",
            "aspect": "Wits",
            "load_before": -2,
            "load_after": -1,
            "off_turn": True,
        },
    ),
    "d4cli act 'Goblin Archer' Finesse --cost 2 --dc 12": Shows(
        lines=("Goblin Archer: Finesse (off-turn, R10)",),
        rows={
            "3d4": ["3d4", "3 + 2 + 4 = 9", "R7"],
            "DC 12": ["DC 12", "9 < 12: failure", "R7"],
            "Load after": ["Load after", "-1 + Cost 2 = 1", "R8"],
        },
        json={
            "off_turn": True,
            "dice": DICE[:3],
            "total": 9,
            "success": False,
            "load_before": -1,
            "load_after": 1,
        },
    ),
    "d4cli effect add 'Goblin Archer' blinded --dis --until-end-of 'Goblin Archer'": Shows(
        lines=("Goblin Archer: blinded -1d4, until the end of Goblin Archer's turn (R20)",),
        json={
            "actor": "Goblin Archer",
            "effect.source": "blinded",
            "effect.grant": "disadvantage",
            "effect.ends.kind": "end",
            "effect.ends.creature": "Goblin Archer",
        },
    ),
    "d4cli act Borin Wits --gm --note 'spots the trap'": Shows(
        rows={
            "Gate": ["Gate", "skipped: a GM-called roll (headroom 3)", "R9"],
            "2d4": ["2d4", "3 + 2 = 5", "R7"],
            "Load after": ["Load after", "-1, unchanged: a GM-called roll adds no Cost", "R9"],
        },
        json={
            "gate_skipped": True,
            "dice": DICE[:2],
            "total": 5,
            "load_before": -1,
            "load_after": -1,
        },
    ),
    "d4cli turn end": Shows(
        lines=("Aria's turn ended; Load stays 0 (R14); next: Borin",),
        json={"actor": "Aria", "load_after": 0, "next": "Borin", "round_over": False},
    ),
    "d4cli turn start 'Goblin Archer'": Shows(
        lines=("Goblin Archer's turn (out of order, R13); Load 1 -> -1 (reset, R1)",),
        json={
            "actor": "Goblin Archer",
            "new_round": False,
            "out_of_order": True,
            "resets": [{"name": "Goblin Archer", "load_before": 1, "load_after": -1}],
        },
    ),
    "d4cli damage 'Goblin Archer' 7": Shows(
        lines=("Goblin Archer takes 7: HP 6 -> 0 of 7 (down: its turns are skipped, R18)",),
        json={"hp_before": 6, "hp_after": 0, "down_after": True},
    ),
    "d4cli heal 'Goblin Archer' 3": Shows(
        lines=(
            "Goblin Archer heals 3: HP 0 -> 3 of 7 (back in the turn order, R18); "
            "round 1 is done for it: its next turn is in round 2 (R19)",
        ),
        json={"hp_before": 0, "hp_after": 3, "max_hp": 7, "down_after": False},
    ),
    "d4cli move 'Goblin Brute' --before Aria": Shows(
        lines=(
            "moved Goblin Brute from place 4 to 1 (R13): Goblin Brute, Aria, Borin, Goblin Archer; next: Goblin Brute",
        ),
        json={
            "position_before": 4,
            "position_after": 1,
            "order": ["Goblin Brute", "Aria", "Borin", "Goblin Archer"],
        },
    ),
    "d4cli status": Shows(
        lines=("Skirmish at the old mill: round 1, turn mode",),
        rows={
            "Aria (party)": [
                "done",
                "Aria (party)",
                "0",
                "1",
                "0",
                "11",
                "12/12",
                "Finesse: 4 left (Aspect 4), Might: 2 left (Aspect 2), Wits: 3 left (Aspect 3)",
                "yes: Finesse, Might, Wits",
                "team action +1d4 (Team Action), 1 roll left",
            ],
            "Borin (party)": [
                "",
                "Borin (party)",
                "-1",
                "2",
                "0",
                "12",
                "16/16",
                "Might: 5 left (Aspect 4), Finesse: 3 left (Aspect 2), Wits: 3 left (Aspect 2)",
                "yes: Might, Finesse, Wits",
                "",
            ],
            "Goblin Archer (foes)": [
                "now",
                "Goblin Archer (foes)",
                "-1",
                "1",
                "0",
                "10",
                "3/7",
                "Finesse: 4 left (Aspect 3), Might: 2 left (Aspect 1)",
                "yes: Finesse, Might",
                "blinded -1d4, until the end of Goblin Archer's turn",
            ],
        },
        json={
            "round": 1,
            "current": "Goblin Archer",
            "next": "Goblin Brute",
            "creatures.0.name": "Goblin Brute",
            "creatures.1.pending": {"advantage": ["team action"], "disadvantage": []},
            "creatures.2.load": -1,
            "creatures.3.hp": 3,
        },
    ),
    "d4cli log": Shows(
        json={
            "entries.2.dice": DICE[:4],
            "entries.2.hp_after": 6,
            "entries.6.note": "spots the trap",
            "entries.11.kind": "move",
        },
    ),
    "d4cli log --round 1 --creature Aria": Shows(
        json={
            "entries.0.kind": "turn-start",
            "entries.1.dice": DICE[:4],
            "entries.2.kind": "team",
            "entries.2.target": "Aria",
            "entries.3.kind": "turn-end",
        },
    ),
    "d4cli undo": Shows(
        lines=(
            "Undid #12 move: moved Goblin Brute from place 4 to 1 (R13): Goblin Brute, Aria, Borin, Goblin Archer; "
            "next: Goblin Brute",
        ),
        json={"undone.seq": 12, "undone.kind": "move"},
    ),
    "d4cli redo": Shows(
        lines=(
            "Redid #12 move: moved Goblin Brute from place 4 to 1 (R13): Goblin Brute, Aria, Borin, Goblin Archer; "
            "next: Goblin Brute",
        ),
        json={"redone.seq": 12, "redone.kind": "move"},
    ),
    "d4cli add Aldric --aspect Might=3 --attribute Willpower=2 --proficiency Discipline=1 --side party": Shows(
        lines=(
            "added Aldric: Might 3; Buffer 1, Exhaustion 0, Load -1 (R1), Evasion 0; side party; "
            "Attributes Willpower 2; Proficiencies Discipline 1",
        ),
        json={
            "actor": "Aldric",
            "load_after": -1,
            "side": "party",
            "attributes": {"Willpower": 2},
            "proficiencies": {"Discipline": 1},
        },
    ),
    "d4cli check Aldric --attribute Willpower --proficiency Discipline --dc hard": Shows(
        rows={
            "Attribute": ["Attribute", "Willpower +2 (from Aldric's sheet)", "C8"],
            "Natural d20": ["Natural d20", "11", "C1"],
            "Result": ["Result", "14", "C1"],
            "DC 18 (hard)": ["DC 18 (hard)", "14 misses by 4: fails", "C2"],
        },
        json={
            "natural": 11,
            "attribute": 2,
            "proficiency": 1,
            "total": 14,
            "dc": 18,
            "success": False,
            "load": -1,
        },
    ),
    "d4cli action add Aria shortbow --aspect Finesse --cost 2 --extra 1d6": Shows(
        lines=("Aria: added action shortbow (Finesse, Cost 2)",),
        json={
            "replaced": None,
            "action": {"name": "shortbow", "aspect": "Finesse", "cost": 2, "extra": ["1d6"]},
        },
    ),
    "d4cli act Aria dagger --target 'Goblin Archer'": Shows(
        lines=("Team Action grants used up: +team action (R11)", "Goblin Archer: HP 3 -> 1 (R16)"),
        rows={
            "Pool": ["Pool", "4 +1 = 5d4", "R5"],
            "Extra 1d4": ["Extra 1d4", "1", "R6"],
            "Total": ["Total", "12", "R7"],
            "Evasion 10": ["Evasion 10", "max(0, 12 - 10) = 2 damage", "R7"],
        },
        json={
            "action": "dagger",
            "aspect_name": "Finesse",
            "cost": 1,
            "dice": DICE,
            "total": 12,
            "damage": 2,
            "hp_after": 1,
            "grants_used": {"advantage": ["team action"], "disadvantage": []},
        },
    ),
    "d4cli act Aria dagger --cost 2": Shows(
        rows={
            "Gate": ["Gate", "Aspect 4 - Load 1 = headroom 3 >= Cost 2: allowed", "R2"],
            "Total": ["Total", "10", "R7"],
            "Load after": ["Load after", "1 + Cost 2 = 3", "R8"],
        },
        json={
            "action": "dagger",
            "cost": 2,
            "pool_size": 3,
            "dice": DICE[:3],
            "total": 10,
            "load_after": 3,
        },
    ),
    "d4cli status Aria": Shows(
        lines=("Aria (party)",),
        rows={
            "Aspects": [
                "Aspects",
                "Finesse 4 (headroom 1), Might 2 (headroom -1), Wits 3 (headroom 0)",
            ],
            "Load": ["Load", "3 (Buffer 1, Exhaustion 0, resets to -1)"],
            "Action dagger": ["Action dagger", "Finesse, Cost 1, 1d4"],
        },
        json={"load": 3, "headroom": {"Finesse": 1, "Might": -1, "Wits": 0}, "effects": []},
    ),
    # --- The players' screen
    "d4cli conceal 'Goblin Brute'": Shows(
        lines=("Goblin Brute is hidden from the player view",),
        json={"actor": "Goblin Brute", "hidden_before": False, "hidden_after": True},
    ),
    "d4cli alias 'Goblin Archer' 'Goblin 2'": Shows(
        lines=("Goblin Archer is shown to the players as 'Goblin 2'",),
        json={"actor": "Goblin Archer", "alias_before": None, "alias_after": "Goblin 2"},
    ),
    "d4cli effect add Borin cursed --dis --gm-only": Shows(
        lines=("Borin: cursed -1d4 (GM only), until removed (R20)",),
        json={"actor": "Borin", "effect.source": "cursed", "effect.public": False},
    ),
    "d4cli board --players --once": Shows(
        lines=("Skirmish at the old mill: round 1", "now: Goblin 2; next: Aldric"),
        json={
            "kind": "player-view",
            "next": "Aldric",
            "round": 1,
            "turn": "Goblin 2",
            "creatures.0.name": "Aria",
            "creatures.1.name": "Borin",
            "creatures.1.effects": [],
            "creatures.2.name": "Goblin 2",
            "creatures.2.hp_label": "Bloodied",
            "creatures.2.hp": None,
            "creatures.3.name": "Aldric",
        },
    ),
}


def table_rows(text: str) -> list[list[str]]:
    """The rows of the tables in *text* (Rich's ``┃`` heads and ``│`` bodies), each as its stripped cells."""
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line[:1] in ("│", "┃"):
            rows.append([cell.strip() for cell in re.split("[│┃]", line.strip("│┃"))])
    return rows


def value_at(obj: object, path: str) -> object:
    for key in path.split("."):
        obj = obj[int(key)] if isinstance(obj, list) else obj[key]  # type: ignore[index]
    return obj


def _check_human(example: Example, out) -> None:
    shows = EXAMPLES[example.command]
    said = f"{example.command}\n{out}"
    lines = out.stdout.splitlines()
    for line in shows.lines:
        assert line in lines, f"{said}\nmissing line {line!r}"
    rows = table_rows(out.stdout)
    for cell, cells in shows.rows.items():
        assert cells in [row for row in rows if cell in row], (
            f"{said}\nrow {cell!r}: want {cells}, have {[r for r in rows if cell in r]}"
        )
    if shows.stderr is not None:
        assert out.stderr == shows.stderr, said


def _check_json(example: Example, out) -> None:
    shows = EXAMPLES[example.command]
    obj = out.json()
    for path, value in shows.json.items():
        assert value_at(obj, path) == value, (
            f"{example.command} --json: {path} is {value_at(obj, path)!r}, not {value!r}"
        )


# --- the tests ------------------------------------------------------------------------------


def test_the_parser_reads_commands_comments_and_exit_codes():
    assert _split_comment("d4cli act 'a # b' x  # a comment: exit 3") == (
        "d4cli act 'a # b' x",
        "a comment: exit 3",
    )
    assert _split_comment('d4cli act "Goblin #2" Might') == ('d4cli act "Goblin #2" Might', "")
    assert _split_comment("d4cli roll pool 4#x") == ("d4cli roll pool 4#x", "")


def test_readme_has_the_examples():
    examples = console_examples()
    commands = [example.command for example in examples]
    assert "d4cli init --from skirmish" in commands
    assert "d4cli team Borin Aria --adv --aspect Wits" in commands
    assert "d4cli act Aria dagger --target 'Goblin Archer'" in commands
    assert len(commands) >= 25
    refused = [example for example in examples if example.code == 3]
    assert [example.command for example in refused] == ["d4cli roll pool 2 --load 1 --cost 2"]
    assert "refused by the gate" in refused[0].comment
    assert [c for c in commands if c not in EXAMPLES] == [], (
        "README shows examples this test does not check yet"
    )
    assert [c for c in EXAMPLES if c not in commands] == [], (
        "EXAMPLES checks commands README no longer shows"
    )


def test_every_readme_console_example_runs_in_order():
    # The rolls first (no encounter needed), then the encounter examples from the init on;
    # the odds grids read no file.
    for example in console_examples():
        out = run(*example.words, env=SEED)
        assert out.exit_code == example.code, f"{example.command}\n{out}"
        _check_human(example, out)


def test_every_readme_console_example_gives_its_values_as_json():
    for example in console_examples():
        json_ = "--format" not in example.words  # a grid in markdown or CSV is its own format
        out = run(*example.words, *(["--json"] if json_ else []), env=SEED)
        assert out.exit_code == example.code, f"{example.command} --json\n{out}"
        if json_:
            _check_json(example, out)


def test_the_refused_roll_says_why_and_changes_nothing(tmp_path):
    (example,) = [example for example in console_examples() if example.code == 3]
    out = run(*example.words, env=SEED)
    assert (out.exit_code, out.stderr) == (
        3,
        "d4cli: refused by the gate (R2): headroom 1 < Cost 2, short by 1\n",
    )
    assert "refused, short by 1" in out.stdout and "nothing was rolled" in out.stdout
    assert list(tmp_path.iterdir()) == []


def test_the_play_transcript_shows_real_prompts_and_lines(isolated_env, capsys, monkeypatch):
    from d4cli.cli.play_session import Session

    steps = play_transcript()
    assert steps, "README shows no d4cli play session"
    monkeypatch.setenv("D4CLI_SEED", "7")
    ok("init", "--from", "skirmish")
    session = Session(None)
    for prompt, typed, shown in steps:
        assert session.prompt() == prompt, typed
        capsys.readouterr()
        assert session.run_line(typed) == 0, typed
        printed = capsys.readouterr().out.splitlines()
        if "..." in shown:
            assert [line for line in shown if line != "..." and line not in printed] == [], (
                typed,
                printed,
            )
        elif shown:
            assert printed == shown, typed


def readme_error_lines(text: str | None = None) -> list[str]:
    """The ``d4cli: error: encounter.toml: creature ...`` lines *text* (README) quotes for a damaged file."""
    text = _readme() if text is None else text
    return re.findall(r"^d4cli: error: encounter\.toml: creature .*$", text, re.M)


def quoted_error_lines() -> list[tuple[str, str]]:
    """``(page, line)`` for every error line README and docs/file-format.md quote."""
    file_format = FILE_FORMAT.read_text(encoding="utf-8").replace("\r\n", "\n")
    return [
        *(("README.md", line) for line in readme_error_lines()),
        *(("docs/file-format.md", line) for line in readme_error_lines(file_format)),
    ]


def _damage(doc: dict, line: str) -> None:
    """Make in *doc* the fault README's error *line* names."""
    found = re.match(r"d4cli: error: encounter\.toml: creature '([^']+)': (\w+): (.*)$", line)
    assert found, line
    name, key, problem = found.groups()
    (row,) = [row for row in doc["creature"] if row["name"] == name]
    misspelt = re.match(r"unknown key \(did you mean '(\w+)'\?\)", problem)
    if misspelt:
        row[key] = row.pop(misspelt[1])
        return
    value = re.match(r"([^:]+): must be", problem)
    assert value, f"README quotes an error this test cannot make: {line}"
    row[key] = tomllib.loads(f"v = {value[1]}")["v"]


@pytest.mark.parametrize(
    ("page", "line"),
    quoted_error_lines(),
    ids=[f"{page} {' '.join(line.split(': ')[3:5])}" for page, line in quoted_error_lines()],
)
def test_the_quoted_file_errors_are_what_d4cli_prints(tmp_path, monkeypatch, page, line):
    monkeypatch.delenv("D4CLI_FILE")
    ok("init", "--from", "skirmish", file="encounter.toml")
    doc = tomllib.loads((tmp_path / "encounter.toml").read_text(encoding="utf-8"))
    _damage(doc, line)
    (tmp_path / "encounter.toml").write_text(tomli_w.dumps(doc), encoding="utf-8")
    out = run("status")
    assert out.exit_code == 2, f"{page}: {out}"
    (printed,) = out.stderr.splitlines()
    if line.endswith("..."):  # the page leaves the rest of the line out
        assert printed.startswith(line.removesuffix("...").rstrip()), (page, printed, line)
    else:
        assert printed == line, page


def test_readme_quotes_the_file_errors():
    assert readme_error_lines(), "README quotes no error line for a damaged file"
    pages = {page for page, _ in quoted_error_lines()}
    assert "docs/file-format.md" in pages, "docs/file-format.md quotes no error line"
