"""Fuzzing: random argument lists for every command, random damage to the file.

Invariant, whatever the input: exit code 0, 2 or 3 only, never a traceback or an
"internal error"; on 2 stdout is empty and stderr ends in one ``d4cli: error:``
line; on 2 or 3 every file of the encounter's folder (the encounter file, its
journal, anything else; lock files aside) is byte-for-byte as it was; on 0 the
file still loads (``status --json`` exits 0) and its history still reads
(``log --json`` exits 0).

The default profile ("d4cli-fuzz", tests/conftest.py) keeps CI fast;
``D4CLI_FUZZ=long`` runs many more cases. Every case adds to the "fuzz cases"
figure printed at the end of the run.
"""

from __future__ import annotations

import functools
import json
import tomllib
from dataclasses import dataclass, field

import pytest
import tomli_w
from _cli import Outcome, run
from _reliability import (
    EXAMPLES,
    FUZZ_LONG,
    REPO,
    check_answer,
    count,
    scratch_folder,
    snapshot,
)
from hypothesis import given, settings
from hypothesis import strategies as st

# Long fuzzing: thousands of cases (more with D4CLI_FUZZ=long); `pytest -m 'not slow'` leaves it out.
pytestmark = pytest.mark.slow

FUZZ = settings.get_profile("d4cli-fuzz-long" if FUZZ_LONG else "d4cli-fuzz")
# Eleven encounter commands get a test each: two thirds of the budget apiece keeps CI fast.
FUZZ_PER_COMMAND = settings(FUZZ, max_examples=max(1, FUZZ.max_examples * 2 // 3))

# ---------------------------------------------------------------------------------------------
# Values drawn from the input grammar, at and beyond every limit (L1-L4, docs/cli.md ranges)
# ---------------------------------------------------------------------------------------------

RANGES = {
    "aspect": (-1000, 1000),
    "load": (-1000, 1000),
    "modifier": (-1000, 1000),
    "cost": (0, 1000),
    "exhaustion": (0, 1000),
    "buffer": (0, 1000),
    "dc": (-100_000, 100_000),
    "evasion": (0, 100_000),
    "hp": (0, 100_000),
    "level": (0, 5),
    "count": (0, 1000),
    # --times stays small: a million valid rolls of a big pool is a benchmark, not a fuzz case.
    "times": (1, 3),
    "seed": (0, 2**63 - 1),
    "last": (1, 10**9),
}

# Text that is not a plain whole number but looks like one (L3), and other troublemakers.
NUMBERISH = [
    "",
    " ",
    "-",
    "--",
    "+3",
    " 3",
    "3 ",
    "3.0",
    "3_000",
    "1e3",
    "0x10",
    "true",
    "false",
    "NaN",
    "inf",
    "-0",
    "007",
    "\u0663",
    "\uff13",
    "3\x00",
    "9" * 31,
    "-" + "9" * 31,
    "1" * 400,
]
HOSTILE_TEXT = [
    "",
    " ",
    "\t",
    "\x1b[31mred\x1b[0m",
    "\x1b]0;title\x07",
    "\x00",
    "\x7f",
    "\x9b31m",
    "\u202eevil",
    "Goblin Archer",
    "GOBLIN  archer ",
    "\uff21",
    "e\u0301",
    "\u00e9",
    "\U0001f409",
    "\udcff",
    "-x",
    "--",
    "-",
    "=",
    "a=b",
    "x" * 300,
    "\n",
    "line\nbreak",
    "'",
    '"',
    "\\",
]
DICE = [
    "1d8",
    "1d4",
    "1d8+2",
    "1d8-2",
    "2d6+1000",
    "1d8+1001",
    "1d8-1001",
    "0d8",
    "-2d8",
    "2d0",
    "1d8+",
    "1d8x",
    "d8",
    "1d",
    "1D8",
    "10000d1000",
    "9999d1",
    "1d1001",
    "1d1000",
    " 1d8",
    "1d8 ",
    "1d8++2",
    "1d8+-2",
    "1d8+02",
    "\uff11d8",
]
JUNK = ["--", "-", "--nope", "-x", "--json=1", "--help", "--version", "-3", "+1", "-f", "--file"]


def whole_numbers(low: int, high: int) -> st.SearchStrategy[str]:
    """Numbers as text: the limits, one past them, far beyond, and anything in between."""
    edges = [low, high, low - 1, high + 1, 0, 1, -1, 10**30, -(10**30), 2**63, 2**64]
    return st.one_of(
        st.sampled_from([str(n) for n in edges]),
        st.integers(low, high).map(str),
        st.integers(-(10**6), 10**6).map(str),
        st.sampled_from(NUMBERISH),
    )


# Pieces that combine into names: escapes, a lone surrogate (a non-UTF-8 byte in argv), bidi.
FRAGMENTS = [
    "a",
    "Aria",
    " ",
    "  ",
    "\x1b[31m",
    "\udc9b",
    "\u202e",
    "=",
    "-",
    "\x00",
    "\u00e9",
    "e\u0301",
    "\n",
    "9",
]


def free_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(HOSTILE_TEXT),
        st.text(max_size=12),
        st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=4).map("".join),
    )


@dataclass(frozen=True)
class Spec:
    """One command: its words, positionals (value kinds) and options (value kind, None for a flag)."""

    words: tuple[str, ...]
    positionals: tuple[str, ...] = ()
    options: dict[str, str | None] = field(default_factory=dict)
    usual: tuple[str, ...] = ()  # options a working call needs: drawn most of the time


COMMON = {"--json": None, "--help": None, "-h": None}
FILE = {"--file": "file", "-f": "file"}
SPECS = {
    "roll pool": Spec(
        ("roll", "pool"),
        ("int:aspect",),
        {
            "--load": "int:load",
            "--cost": "int:cost",
            "--adv": "text",
            "--dis": "text",
            "--extra": "dice",
            "--dc": "int:dc",
            "--evasion": "int:evasion",
            "--gm": None,
            "--ignore-load": None,
            "--odds": None,
            "--times": "int:times",
            "--seed": "int:seed",
            "--quiet": None,
            "-q": None,
            **COMMON,
        },
    ),
    "roll check": Spec(
        ("roll", "check"),
        (),
        {
            "--attribute": "int:modifier",
            "--proficiency": "int:modifier",
            "--specialization": "int:modifier",
            "--dc": "dc",
            "--advantage": "int:level",
            "--disadvantage": "int:count",
            "--rule-of-three": None,
            "--odds": None,
            "--times": "int:times",
            "--seed": "int:seed",
            "--quiet": None,
            **COMMON,
        },
    ),
    "help": Spec(("help",), ("topic",), {"--help": None}),
    "init": Spec(
        ("init",),
        (),
        {
            "--mode": "mode",
            "--from": "example",
            "--force": None,
            "--name": "text",
            **FILE,
            **COMMON,
        },
    ),
    "add": Spec(
        ("add",),
        ("name",),
        {
            "--aspect": "assign",
            "--buffer": "int:buffer",
            "--exhaustion": "int:exhaustion",
            "--evasion": "int:evasion",
            "--hp": "int:hp",
            **FILE,
            **COMMON,
        },
        usual=("--aspect",),
    ),
    "remove": Spec(("remove",), ("name",), {**FILE, **COMMON}),
    "status": Spec(("status",), (), {**FILE, **COMMON}),
    "turn start": Spec(("turn", "start"), ("name",), {**FILE, **COMMON}),
    "turn end": Spec(("turn", "end"), (), {**FILE, **COMMON}),
    "act": Spec(
        ("act",),
        ("name", "aspect"),
        {
            "--cost": "int:cost",
            "--adv": "text",
            "--dis": "text",
            "--extra": "dice",
            "--dc": "int:dc",
            "--target": "name",
            "--evasion": "int:evasion",
            "--dry-run": None,
            "--odds": None,
            "--seed": "int:seed",
            **FILE,
            **COMMON,
        },
    ),
    "team": Spec(
        ("team",),
        ("name", "name"),
        {
            "--adv": None,
            "--dis": None,
            "--aspect": "aspect",
            "--cost": "int:cost",
            "--source": "text",
            **FILE,
            **COMMON,
        },
        usual=("--adv",),
    ),
    "exhaust": Spec(("exhaust",), ("name", "int:exhaustion"), {**FILE, **COMMON}),
    "log": Spec(("log",), (), {"--last": "int:last", **FILE, **COMMON}),
    "undo": Spec(("undo",), (), {**FILE, **COMMON}),
}
ROLL_COMMANDS = ("roll pool", "roll check", "help")
ENCOUNTER_COMMANDS = tuple(name for name in SPECS if name not in ROLL_COMMANDS)


def values(kind: str, names: list[str], aspects: list[str]) -> st.SearchStrategy[str]:
    """Command-line values of one kind (see `Spec`)."""
    if kind.startswith("int:"):
        return whole_numbers(*RANGES[kind[4:]])
    if kind == "dice":
        return st.one_of(st.sampled_from(DICE), free_text())
    if kind == "dc":
        tiers = ["easy", "medium", "hard", "challenging", "nearly-impossible", "HARD", "impossible"]
        return st.one_of(st.sampled_from(tiers), whole_numbers(*RANGES["dc"]))
    if kind == "topic":
        topics = [
            "gate",
            "pool",
            "advantage",
            "load",
            "check",
            "rule-of-three",
            "json",
            "exit-codes",
        ]
        return st.one_of(st.sampled_from(topics + ["GATE", " gate", "nope"]), free_text())
    if kind == "name":
        variants = names + [n.upper() for n in names] + [f"  {n.lower()} " for n in names]
        return st.one_of(st.sampled_from(variants or ["nobody"]), free_text())
    if kind == "aspect":
        return st.one_of(
            st.sampled_from(aspects + [a.lower() for a in aspects] or ["Might"]), free_text()
        )
    if kind == "assign":
        return st.one_of(
            st.builds("{}={}".format, values("aspect", names, aspects), whole_numbers(-1000, 1000)),
            free_text(),
        )
    if kind == "mode":
        return st.one_of(st.sampled_from(["turn", "round", "TURN", "rounds", ""]), free_text())
    if kind == "example":
        return st.one_of(
            st.sampled_from(
                EXAMPLES
                + ["nope", "SKIRMISH", "duel.toml", "encounter.toml", ".", "/dev/null", "x" * 300]
            ),
            free_text(),
        )
    if kind == "file":
        return st.one_of(
            st.sampled_from(
                [
                    "encounter.toml",
                    "missing.toml",
                    ".",
                    "",
                    "..",
                    "sub/x.toml",
                    "encounter.toml/",
                    "x" * 300,
                ]
            ),
            free_text().map(_safe_relative),
        )
    return free_text()


def _safe_relative(text: str) -> str:
    """A --file value that can only name something inside the case's own scratch folder."""
    cleaned = text.replace("/", "_").replace("\\", "_").replace("\x00", "_").lstrip("~")
    return cleaned if cleaned not in ("", ".", "..") else "plain.toml"


@st.composite
def argv_for(
    draw, spec: Spec, names: tuple[str, ...] = (), aspects: tuple[str, ...] = ()
) -> list[str]:
    """A random argument list for *spec*: mostly well-formed, often not."""
    names_, aspects_ = list(names), list(aspects)
    pieces: list[list[str]] = []
    for kind in spec.positionals:
        if draw(st.integers(0, 9)) > 0:  # usually present
            pieces.append([draw(values(kind, names_, aspects_))])
    for option in spec.usual:
        if draw(st.integers(0, 9)) > 2:
            kind = spec.options[option]
            pieces.append(
                [option] if kind is None else [option, draw(values(kind, names_, aspects_))]
            )
    options = sorted(spec.options)
    for _ in range(draw(st.integers(0, 5))):
        choice = draw(st.integers(0, 9))
        if choice <= 6:
            option = draw(st.sampled_from(options))
            kind = spec.options[option]
            if kind is None:
                pieces.append([option])
            elif draw(st.integers(0, 9)) == 0:
                pieces.append([option])  # the value is missing, or the next token becomes it
            elif draw(st.integers(0, 5)) == 0 and option.startswith("--"):
                pieces.append([f"{option}={draw(values(kind, names_, aspects_))}"])
            else:
                pieces.append([option, draw(values(kind, names_, aspects_))])
        elif choice <= 8:
            junk = draw(st.sampled_from(JUNK))
            if junk in ("-f", "--file"):
                pieces.append([junk, draw(values("file", names_, aspects_))])
            else:
                pieces.append([junk])
        else:
            pieces.append([draw(free_text())])
    order = draw(st.permutations(range(len(pieces)))) if draw(st.booleans()) else range(len(pieces))
    argv = list(spec.words)
    for index in order:
        argv.extend(pieces[index])
    # A real argv cannot hold a NUL (C strings); everything else, lone surrogates included, can.
    return [arg.replace("\x00", "") for arg in argv]


def _json_expected(argv: list[str]) -> bool:
    return "--json" in argv and not {"--help", "-h", "--"} & set(argv)


def check_output(out: Outcome) -> None:
    """`check_answer`, plus: JSON output parses, one object a line."""
    check_answer(out)
    if out.exit_code in (0, 3) and _json_expected(out.argv) and out.stdout.lstrip().startswith("{"):
        for line in out.stdout.splitlines():
            assert isinstance(json.loads(line), dict), str(out)


# ---------------------------------------------------------------------------------------------
# Rolls and help: no file involved
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ROLL_COMMANDS)
def test_fuzz_roll_and_help_arguments(command, reliability_figures):
    """Random argument lists for `roll pool`, `roll check` and `help`: 0/2/3 and clear errors only."""
    spec = SPECS[command]

    @FUZZ
    @given(argv=argv_for(spec), seed_env=st.sampled_from([None, "", "7", "-1", "x", "9" * 40]))
    def case(argv, seed_env):
        count(reliability_figures, "fuzz cases")
        check_output(run(*argv, env={"D4CLI_SEED": seed_env}))

    case()


# ---------------------------------------------------------------------------------------------
# Encounter commands: against a few real encounters (each case gets a fresh copy)
# ---------------------------------------------------------------------------------------------


# Encounter folders (file + journal) to fuzz against, each made by real commands.
RECIPES = {
    "skirmish-fresh": [["init", "--from", "skirmish"]],
    "skirmish-mid-round": [
        ["init", "--from", "skirmish"],
        ["turn", "start"],
        ["act", "Aria", "Finesse", "--target", "Goblin Archer", "--seed", "1"],
        ["team", "Borin", "Goblin Archer", "--dis", "--aspect", "Might"],
        ["turn", "start"],
        ["exhaust", "Aria", "2"],
    ],
    "duel-round-mode": [
        ["init", "--from", "duel"],
        ["turn", "start"],
        ["act", "Sera", "Finesse", "--dc", "9"],
    ],
    "empty": [["init"]],
    "hostile-names": [
        ["init"],
        # Legal names that look like trouble (N1): markup, quotes, number-like Aspects.
        [
            "add",
            'Evil[31m "Name" #1',
            "--aspect",
            "M\u00efght=3",
            "--aspect",
            "1_2=2",
            "--aspect",
            "inf=1",
        ],
        ["add", "Zo\u00eb", "--aspect", "Wits=1000", "--hp", "100000", "--evasion", "100000"],
        ["turn", "start"],
    ],
}
STATE_NAMES = sorted(RECIPES)


@functools.cache
def state_files(name: str) -> dict[str, bytes]:
    """The files of the encounter folder *name* (see RECIPES), made once per run."""
    with scratch_folder() as folder:
        env = {"D4CLI_FILE": str(folder / "encounter.toml")}
        for argv in RECIPES[name]:
            out = run(*argv, env=env)
            assert out.exit_code == 0, str(out)
        return snapshot(folder)


NAMES = (
    "Aria",
    "Borin",
    "Goblin Archer",
    "Goblin Brute",
    "Sera",
    "The Masked Blade",
    "Zo\u00eb",
    'Evil[31m "Name" #1',
    "Evil\x1b[31m \u202eName",
)
ASPECTS = ("Finesse", "Might", "Wits", "M\u00efght", "1_2", "inf", "\x9bx")


def run_on_state(state_files: dict[str, bytes], argv: list[str], seed_env: str | None) -> None:
    """Run *argv* on a fresh copy of an encounter folder and check the whole invariant."""
    with scratch_folder(state_files) as folder:
        path = folder / "encounter.toml"
        env = {"D4CLI_FILE": str(path), "D4CLI_SEED": seed_env}
        before = snapshot(folder)
        out = run(*argv, env=env)
        check_output(out)
        after = snapshot(folder)
        if out.exit_code in (2, 3):
            assert after == before, f"{out}\nchanged: {_changed(before, after)}"
        else:
            leftovers = [name for name in after if name.endswith(".tmp")]
            assert not leftovers, f"{out}\ntemp files left: {leftovers}"
            if path.is_file():
                status = run("status", "--json", env=env)
                assert status.exit_code == 0, f"{out}\nthen status: {status}"
                assert isinstance(status.json()["creatures"], list)
                history = run("log", "--json", env=env)
                assert history.exit_code == 0, f"{out}\nthen log: {history}"


def _changed(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    return sorted(
        name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
    )


@pytest.mark.parametrize("command", ENCOUNTER_COMMANDS)
def test_fuzz_encounter_arguments(command, reliability_figures):
    """Random argument lists for every encounter command, on real encounters: the whole invariant."""
    spec = SPECS[command]

    @FUZZ_PER_COMMAND
    @given(
        state=st.sampled_from(STATE_NAMES),
        argv=argv_for(spec, NAMES, ASPECTS),
        seed_env=st.sampled_from([None, "3", "x"]),
    )
    def case(state, argv, seed_env):
        count(reliability_figures, "fuzz cases")
        run_on_state(state_files(state), argv, seed_env)

    case()


# ---------------------------------------------------------------------------------------------
# Damaged encounter files: random mutations of the bundled templates and of a played file
# ---------------------------------------------------------------------------------------------

TEMPLATE_TEXTS = {
    path.stem: path.read_text("utf-8")
    for path in (REPO / "d4cli" / "fileformat" / "examples").glob("*.toml")
}
PLAYED = "skirmish-mid-round"  # the played file the mutations also start from

TOML_VALUES = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0, -1, 1000, 1001, -1001, 100_000, 100_001, 10**6, 2**63 - 1, -(2**63)]),
    st.booleans(),
    st.floats(allow_nan=True),
    st.sampled_from(["", " ", "turn", "round", "Aria", "nobody", "\x1b[2J", "3", "\x00"]),
    st.text(max_size=8),
    st.lists(st.integers(-3, 3), max_size=3),
    st.just({}),
    st.just({"advantage": ["x"], "disadvantage": [1]}),
    st.dictionaries(st.text(max_size=4), st.integers(-2000, 2000), max_size=3),
)


@st.composite
def mutated_document(draw) -> bytes:
    """A template (or a played file) damaged at the TOML level: wrong types, missing keys, duplicates..."""
    source = draw(st.sampled_from(sorted(TEMPLATE_TEXTS) + ["played"]))
    text = (
        state_files(PLAYED)["encounter.toml"].decode()
        if source == "played"
        else TEMPLATE_TEXTS[source]
    )
    doc = tomllib.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        creatures = doc.get("creature") if isinstance(doc.get("creature"), list) else []
        action = draw(
            st.sampled_from(
                [
                    "set-top",
                    "drop-top",
                    "unknown-top",
                    "set-creature",
                    "drop-creature",
                    "unknown-creature",
                    "duplicate",
                    "duplicate-folded",
                    "current-nobody",
                    "next-nobody",
                    "set-aspect",
                    "drop-aspects",
                    "creature-not-table",
                    "huge",
                ]
            )
        )
        if action == "set-top":
            doc[
                draw(
                    st.sampled_from(
                        [
                            "schema_version",
                            "name",
                            "mode",
                            "round",
                            "current",
                            "next_turn",
                            "creature",
                        ]
                    )
                )
            ] = draw(TOML_VALUES)
        elif action == "drop-top" and doc:
            doc.pop(draw(st.sampled_from(sorted(doc))))
        elif action == "unknown-top":
            doc[draw(st.sampled_from(["rounds", "Mode", "creatures", "x"]))] = draw(TOML_VALUES)
        elif creatures and action in (
            "set-creature",
            "drop-creature",
            "unknown-creature",
            "set-aspect",
            "drop-aspects",
            "huge",
        ):
            row = creatures[draw(st.integers(0, len(creatures) - 1))]
            if not isinstance(row, dict):
                continue
            keys = [
                "name",
                "aspects",
                "load_buffer",
                "exhaustion",
                "load",
                "evasion",
                "hp",
                "pending",
            ]
            if action == "set-creature":
                row[draw(st.sampled_from(keys))] = draw(TOML_VALUES)
            elif action == "drop-creature":
                row.pop(draw(st.sampled_from(keys)), None)
            elif action == "unknown-creature":
                row[draw(st.sampled_from(["load_bufer", "Load", "hp ", "aspect"]))] = draw(
                    TOML_VALUES
                )
            elif action == "set-aspect" and isinstance(row.get("aspects"), dict):
                aspect = draw(
                    st.sampled_from(sorted(row["aspects"]) + ["", " ", "MIGHT", "might "])
                )
                row["aspects"][aspect] = draw(TOML_VALUES)
            elif action == "drop-aspects":
                row["aspects"] = {}
            elif action == "huge":
                row[
                    draw(st.sampled_from(["load", "hp", "evasion", "exhaustion", "load_buffer"]))
                ] = draw(st.sampled_from([10**18, -(10**18), 2**63 - 1, 1001, 100_001, -1]))
        elif creatures and action in ("duplicate", "duplicate-folded"):
            original = creatures[draw(st.integers(0, len(creatures) - 1))]
            if not isinstance(original, dict):
                continue
            row = dict(original)
            if action == "duplicate-folded" and isinstance(row.get("name"), str):
                row["name"] = "  " + row["name"].upper() + " "
            creatures.append(row)
        elif action == "current-nobody":
            doc["current"] = draw(st.sampled_from(["nobody", "Ari", "\x1b[31m"]))
            doc["round"] = draw(st.sampled_from([0, 1]))
        elif action == "next-nobody":
            doc["next_turn"] = "nobody"
        elif action == "creature-not-table":
            doc["creature"] = draw(st.sampled_from([[1, 2], "Aria", [[]], {"name": "x"}]))
    try:
        return tomli_w.dumps(_toml_safe(doc)).encode("utf-8")
    except (TypeError, ValueError):
        return text.encode("utf-8")


def _toml_safe(value):
    """tomli-w cannot write NaN keys etc.; anything it refuses just falls back to the original."""
    if isinstance(value, dict):
        return {str(key): _toml_safe(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_toml_safe(item) for item in value]
    return value


@st.composite
def mutated_bytes(draw) -> bytes:
    """A template (or a played file) damaged at the byte level: truncated, bad UTF-8, stray bytes."""
    source = draw(st.sampled_from(sorted(TEMPLATE_TEXTS) + ["played"]))
    data = (
        state_files(PLAYED)["encounter.toml"]
        if source == "played"
        else TEMPLATE_TEXTS[source].encode("utf-8")
    )
    for _ in range(draw(st.integers(1, 3))):
        action = draw(
            st.sampled_from(
                [
                    "truncate",
                    "insert",
                    "flip",
                    "delete-line",
                    "duplicate-line",
                    "bom",
                    "huge-number",
                    "nul",
                ]
            )
        )
        at = draw(st.integers(0, len(data)))
        if action == "truncate":
            data = data[:at]
        elif action == "insert":
            junk = draw(
                st.sampled_from(
                    [
                        b"\xff",
                        b"\xc3",
                        b"\xed\xa0\x80",
                        b"\x80\x80",
                        b"[[creature]]\n",
                        b"=",
                        b'"',
                        b"\n[x]\n",
                    ]
                )
            )
            data = data[:at] + junk + data[at:]
        elif action == "flip" and data:
            at = min(at, len(data) - 1)
            data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
        elif action in ("delete-line", "duplicate-line"):
            lines = data.split(b"\n")
            index = draw(st.integers(0, len(lines) - 1))
            if action == "delete-line":
                del lines[index]
            else:
                lines.insert(index, lines[index])
            data = b"\n".join(lines)
        elif action == "bom":
            data = b"\xef\xbb\xbf" + data
        elif action == "huge-number":
            data = data.replace(b"= 1\n", b"= " + b"9" * draw(st.integers(4, 400)) + b"\n", 1)
        elif action == "nul":
            data = data[:at] + b"\x00" + data[at:]
    return data


COMMANDS_ON_DAMAGED_FILES = [
    ["status"],
    ["status", "--json"],
    ["log"],
    ["log", "--json"],
    ["undo"],
    ["turn", "start"],
    ["turn", "end"],
    ["turn", "start", "Borin"],
    ["act", "Aria", "Finesse", "--seed", "1"],
    ["act", "Sera", "Finesse", "--dc", "5", "--json"],
    ["act", "Aria", "Might", "--target", "Goblin Brute", "--dry-run"],
    ["add", "Newcomer", "--aspect", "Might=2"],
    ["remove", "Aria"],
    ["exhaust", "Borin", "1"],
    ["team", "Borin", "Aria", "--adv", "--aspect", "Might"],
    ["init", "--from", "duel"],
    ["init", "--force", "--from", "skirmish"],
]


def run_on_damaged(data: bytes, argv: list[str]) -> None:
    """Put *data* in place of the played file (its journal kept) and run *argv*; check the invariant."""
    files = dict(state_files(PLAYED))
    files["encounter.toml"] = data
    with scratch_folder(files) as folder:
        path = folder / "encounter.toml"
        env = {"D4CLI_FILE": str(path)}
        before = snapshot(folder)
        out = run(*argv, env=env)
        check_output(out)
        after = snapshot(folder)
        if out.exit_code in (2, 3):
            assert after == before, f"{out}\nchanged: {_changed(before, after)}"
            return
        if after["encounter.toml"] != data:
            # The command wrote the file: what it wrote must load and have a readable history.
            status = run("status", "--json", env=env)
            assert status.exit_code == 0, f"{out}\nthen status: {status}"
            history = run("log", "--json", env=env)
            assert history.exit_code == 0, f"{out}\nthen log: {history}"
        elif argv[0] not in ("log",):
            # Unchanged and exit 0: the command read the file, so it must be valid.
            status = run("status", "--json", env=env)
            assert status.exit_code == 0, f"{out}\nthen status: {status}"


def _status_error_names_the_file(data: bytes) -> None:
    with scratch_folder({"encounter.toml": data}) as folder:
        out = run("status", env={"D4CLI_FILE": str(folder / "encounter.toml")})
        check_answer(out)
        if out.exit_code == 2:
            assert "encounter.toml" in out.stderr.splitlines()[-1], str(out)
        else:
            assert out.exit_code == 0, str(out)


@FUZZ
@given(data=mutated_document(), argv=st.sampled_from(COMMANDS_ON_DAMAGED_FILES))
def test_fuzz_damaged_document(data, argv, reliability_figures):
    """Wrong types, missing or unknown keys, duplicates, huge numbers, a `current` naming nobody."""
    count(reliability_figures, "fuzz cases")
    _status_error_names_the_file(data)
    run_on_damaged(data, argv)


@FUZZ
@given(data=mutated_bytes(), argv=st.sampled_from(COMMANDS_ON_DAMAGED_FILES))
def test_fuzz_damaged_bytes(data, argv, reliability_figures):
    """Truncated text, invalid UTF-8, stray bytes, a BOM, NULs, 400-digit numbers."""
    count(reliability_figures, "fuzz cases")
    _status_error_names_the_file(data)
    run_on_damaged(data, argv)


@FUZZ
@given(
    line=st.one_of(
        st.binary(max_size=40),
        st.sampled_from(
            [
                b"{}\n",
                b'{"kind": 1}\n',
                b"[]\n",
                b'{"kind": "act"}\n',
                b'{"kind":"act","prev":3}\n',
                b"\xff\n",
            ]
        ),
    ),
    where=st.sampled_from(["end", "middle", "replace-last"]),
    argv=st.sampled_from(
        [
            ["log", "--json"],
            ["undo"],
            ["turn", "end"],
            ["act", "Borin", "Might", "--seed", "2"],
            ["status"],
        ]
    ),
)
def test_fuzz_damaged_journal(line, where, argv, reliability_figures):
    """A journal with a torn, foreign or nonsense line: the answer is still 0/2/3 and nothing moves on error."""
    count(reliability_figures, "fuzz cases")
    journal = state_files(PLAYED)["encounter.toml.journal"]
    lines = journal.splitlines(keepends=True)
    if where == "end":
        damaged = journal + line
    elif where == "middle":
        damaged = b"".join(lines[:2]) + line + b"".join(lines[2:])
    else:
        damaged = b"".join(lines[:-1]) + line
    files = dict(state_files(PLAYED))
    files["encounter.toml.journal"] = damaged
    with scratch_folder(files) as folder:
        env = {"D4CLI_FILE": str(folder / "encounter.toml")}
        before = snapshot(folder)
        out = run(*argv, env=env)
        check_output(out)
        if out.exit_code in (2, 3):
            assert snapshot(folder) == before, str(out)
        else:
            assert run("status", "--json", env=env).exit_code == 0
