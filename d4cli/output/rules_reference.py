"""The rules reference shown by ``d4cli help``: topics, and every rule by its id.

Each topic names the rules it explains (their ids, stated in docs/rules.md) and
carries a worked example that the test suite checks against the rules core.
``d4cli help R14`` prints one rule: `RULES` (in `d4cli.output.ruletext`) is generated
from docs/rules.md by `parse_rules` (``python scripts/gen_rules.py``), and a
test keeps the two equal.
"""

# No `from __future__ import annotations`: a named tuple's field annotations would then be
# strings, each compiled when the class is made (start-up).

import re
from typing import NamedTuple

RULE_ID = re.compile(r"^(R|C|L|N)([0-9]+)$")


class Rule(NamedTuple):
    """One rule of docs/rules.md: its id (``R14``), title, statement and worked example."""

    id: str
    title: str
    text: str
    example: str


def rule_key(word: str) -> str | None:
    """The rule id *word* names (``r14`` and `` R14 `` give ``R14``), or None if it names none."""
    key = word.strip().upper()
    return key if RULE_ID.match(key) else None


def parse_rules(markdown: str) -> dict[str, Rule]:
    """The rules stated in docs/rules.md, by id, in the page's order.

    A rule is a ``### ID Title`` heading, paragraphs of its statement, and one
    paragraph starting ``Example:`` with the paragraphs after it. Lines of a
    paragraph are joined with spaces; paragraphs with a blank line.

    Raises:
        ValueError: a rule heading without an example, or an id given twice.
    """
    rules: dict[str, Rule] = {}
    sections = re.split(r"^(?=#{1,3} )", markdown, flags=re.MULTILINE)
    for section in sections:
        heading, _, body = section.partition("\n")
        match = re.match(r"^### ((?:R|C|L|N)[1-9][0-9]*) (.+)$", heading.strip())
        if match is None:
            continue
        rule_id, title = match.groups()
        paragraphs = [" ".join(part.split()) for part in re.split(r"\n\s*\n", body) if part.strip()]
        starts = [i for i, part in enumerate(paragraphs) if part.startswith("Example:")]
        if not starts or rule_id in rules:
            raise ValueError(f"docs/rules.md: {rule_id}: needs one example and a unique id")
        first = starts[0]
        example = "\n\n".join(paragraphs[first:]).removeprefix("Example:").strip()
        rules[rule_id] = Rule(rule_id, title, "\n\n".join(paragraphs[:first]), example)
    return rules


class Topic(NamedTuple):
    """One help topic: a title, its rule ids, the explanation and a worked example."""

    title: str
    rules: str
    body: str
    example: str


TOPICS: dict[str, Topic] = {
    "gate": Topic(
        "Can I act? The gate",
        "R2 R3 R9 R10",
        "Subtract the creature's current Action Load from the Aspect the action uses: that is "
        "its headroom. The action may be taken when the headroom is at least the action's "
        "Cost (R2). Costs are whole numbers from 0 up; a Cost-0 action needs a headroom of 0 "
        "or more (R3). The same test applies on the creature's own turn, off its turn and to "
        "Team Actions (R10). Advantage and Disadvantage never enter the gate. A refused "
        "action rolls nothing and changes nothing (exit code 3). A GM-called roll skips the "
        "gate (R9, `--gm`).",
        "Aspect 2, Load 1, Cost 2: headroom 2 - 1 = 1 < 2, refused, short by 1.\n"
        "  d4cli roll pool 2 --load 1 --cost 2      (exit 3)",
    ),
    "pool": Topic(
        "Sizing and rolling the D4 pool",
        "R5 R6 R7 R8",
        "Base pool = Aspect - max(0, Load): a negative Load never adds dice. Add the Net "
        "Advantage; whatever the result, at least 1d4 is rolled, even with a negative Aspect "
        "(R5). Extra dice such as a dagger's 1d4 or a weapon's 1d8+2 come on top and are not "
        "part of the pool (R6). The total is every die added up (R7): against a DC the roll "
        "succeeds when the total reaches it; against a target the damage is the total minus "
        "its Evasion, never below 0. After an allowed action the Load rises by the Cost, "
        "whether the roll succeeded or not (R8).",
        "Finesse 6, Load 2, a dagger: 6 - 2 = 4d4 plus 1d4. A total of 14 against Evasion 11\n"
        "deals 3 damage; the Load becomes 3.\n"
        "  d4cli roll pool 6 --load 2 --extra 1d4 --evasion 11",
    ),
    "advantage": Topic(
        "Advantage and Disadvantage on the D4 pool",
        "R4 R5 R11",
        "Each distinct source of Advantage adds 1d4 to the pool; each distinct source of "
        "Disadvantage removes 1d4. A source counts once per roll however often it is named; "
        "names match ignoring case and extra spaces ('Watch My Back' = 'watch  my back'). "
        "Net Advantage = Advantage sources - Disadvantage sources (R4). It is applied after "
        "the gate and the base pool, so it can neither refuse an action nor be capped by the "
        "headroom; the pool never falls below 1d4 (R5). A Team Action grants a named source "
        "for the target's next roll (R11).",
        "Finesse 4, Load 0: base 4d4. Dark (-1), a torch (+1), advice (+1): Net Advantage +1,\n"
        "so 5d4.\n"
        "  d4cli roll pool 4 --adv torch --adv advice --dis darkness",
    ),
    "effects": Topic(
        "Lasting effects and when they end",
        "R4 R11 R17 R18 R20 C8",
        "`d4cli effect add CREATURE SOURCE --adv|--dis` puts a named source on a creature: on "
        "its own rolls, or with `--against` on the rolls that target it (`act ... --target`). "
        "Every `act` counts it as a source under R4, once, even when the same name is also "
        "given with `--adv`/`--dis`. It ends on its duration: `--until-start-of NAME` (the "
        "start of NAME's next turn), `--until-end-of NAME` (the end of NAME's running turn, "
        "else its next), `--rounds N` (when round applied + N - 1 ends; round 1 before the "
        "first round), `--uses N` (after N rolls it applied to), or none (until `effect "
        "remove`). The turn start, turn end or roll that ends it says so and `undo` brings "
        "it back. A Team Action grant is a one-roll effect (R11). One name holds one effect: "
        "the same name again replaces it, but under the other grant it is refused (R20). "
        "Several creatures, patterns (`Goblin*`) and `--side foes` get the one effect, with "
        "one duration, in one change: one log entry, one `undo`. "
        "Removing a creature takes its effects, and effects timed to its turn end with the "
        "removal (R17, R20); effects timed to the turn of a creature that is down and missed "
        "its turn end with that round (R18, R20). `--level L` (1-5, with `--adv`) raises a "
        "check's Advantage Level by L (C8); a pool roll still counts the source once.",
        "The skirmish example, order Aria, Borin, Goblin Archer, Goblin Brute:\n"
        "  d4cli init --from skirmish --force\n"
        "Before the first round:\n"
        "  d4cli effect add Aria darkness --dis                 (until removed)\n"
        "  d4cli effect add Aria blessed --adv --rounds 2       (ends when round 2 ends)\n"
        "  d4cli effect add Aria haste --adv --uses 2           (ends after 2 of Aria's rolls)\n"
        "On Aria's turn in round 1:\n"
        "  d4cli turn start\n"
        '  d4cli effect add "Goblin Archer" prone --adv --against --until-start-of "Goblin Archer"\n'
        "    (ends at the start of the Goblin Archer's turn, later in round 1)\n"
        "  d4cli effect add Aria focus --adv --until-end-of Aria     (ends when this turn ends)\n"
        "A reaction on Borin's turn, off Aria's turn:\n"
        "  d4cli turn start\n"
        "  d4cli effect add Aria shield --adv --until-start-of Aria\n"
        "    (ends at the start of Aria's next turn, in round 2: not a round later;\n"
        "    that turn start says: shield on Aria ended: start of Aria's turn)",
    ),
    "load": Topic(
        "Action Load, turns, the Load Buffer and Exhaustion",
        "R1 R8 R10 R12 R13 R14 R15",
        "At the start of its turn a creature's Load becomes Exhaustion - Load Buffer (R1): "
        "with a Buffer of 1 and no Exhaustion that is -1. Each allowed action adds its Cost "
        "(R8), also off the creature's turn (R10). Ending a turn early keeps the Load, which "
        "leaves headroom for reactions (R14). Exhaustion only changes the reset value (R15). "
        "Turn order is the order of the encounter file; a round ends when every creature "
        "not down has had its turn (R13, R19). In `round` mode everybody resets at the start "
        "of each round instead (R12), to the R1 value or, with `--round-reset zero`, to 0.",
        "Buffer 1, Exhaustion 0: Load -1 at the start of the turn; after a Cost-1 action it is\n"
        "0. Buffer 1, Exhaustion 2: the turn starts at Load 1.",
    ),
    "check": Topic(
        "The d20 Action Roll",
        "C1 C2 C3 C4 C5 C6 C8",
        "Result = natural d20 + Attribute + Proficiency + Specialization, plus the Advantage "
        "bonus, minus a Disadvantage die, plus a critical d6 (C1). It succeeds when it meets "
        "the DC: a number, or easy 6, medium 12, hard 18, challenging 24, nearly-impossible "
        "30 (C2). Advantage Level L (1 to 5) rolls L d6 and adds the highest, +1 for each six "
        "beyond the first (C3). One Disadvantage lowers the Level by 1, or at Level 0 "
        "subtracts 1d6; two or more make the action impossible (C4, exit 3). A natural 20 "
        "adds an extra d6 but does not succeed by itself (C5); a natural 1 always fails (C6). "
        "For a creature of the encounter, `d4cli check NAME --attribute Agility` takes the "
        "values from its sheet and counts its lasting effects (C8): see `d4cli help sheets`.",
        "Level 2 Advantage rolls 4 and 6: +6. Rolls 6 and 6: +7.\n"
        "  d4cli roll check --attribute 3 --advantage 2 --dc hard",
    ),
    "rule-of-three": Topic(
        "The Rule of Three",
        "C7 C6",
        "Optional (`--rule-of-three`). A failure that missed the DC by 1 or 2 becomes 'fails, "
        "but...': something small still goes the character's way. A success that beat the "
        "DC by 4 or more becomes 'succeeds, and...': an extra benefit. Missing by 3 or more, "
        "or beating by 0 to 3, is a plain result. A natural 1 is never softened (C6).",
        "DC 12: a Result of 10 or 11 fails, but...; 16 or more succeeds, and...; 12 to 15 is\n"
        "a plain success.\n"
        "  d4cli roll check --dc 12 --rule-of-three",
    ),
    "encounter": Topic(
        "Playing an encounter: turns, reactions, Team Actions",
        "R9 R10 R11 R12 R13 R14 R16 R17 R18 R19",
        "`d4cli init --from skirmish` creates ./encounter.toml (or --file / D4CLI_FILE). "
        "Creatures act in the order of the file (R13); `turn start` begins the next one's "
        "turn and resets its Load (R1), or in `round` mode resets everyone when a round "
        "begins (R12). `act NAME ASPECT` passes the gate, rolls the pool and adds the Cost "
        "to the Load; an act outside the creature's own turn is a reaction with the same "
        "gate (R10); `act --gm` is a roll the GM calls for: no gate, no Cost, not a reaction "
        "(R9). `team ACTOR TARGET --adv` spends ACTOR's Cost to give TARGET's next roll "
        "a named source of Advantage (R11). `turn end` keeps the Load (R14). With `hp`, "
        "damage is taken off it, never below 0 (R16); `damage NAME N` and `heal NAME N` change "
        "it directly (several names or patterns such as `Goblin*` in one change, dice rolled "
        "once for all). At 0 hp a creature is down: skipped by the turn order, unable to act "
        "(R18). Every creature not down has one turn per round, even after an out-of-order "
        "`turn start NAME` (R19); `move NAME --before OTHER` reorders. `remove` never passes "
        "the turn to someone else (R17), nor ends the round (R19). `log` shows every change and `undo` reverts the newest one.",
        "d4cli init --from skirmish -f fight.toml --force\n"
        "  d4cli turn start -f fight.toml\n"
        "  d4cli act Aria Finesse --extra 1d4 --target 'Goblin Archer' -f fight.toml",
    ),
    "sheets": Topic(
        "Creature sheets: stored checks and named actions",
        "C8 C1 R3 R6 R20",
        "A creature may carry a sheet in the encounter file: a `side`, stored stats "
        "(`attributes`, `proficiencies`, `specializations`: name = value) and named actions. "
        "`check NAME --attribute A [--proficiency P] [--specialization S]` makes the d20 Action "
        "Roll with the values from NAME's sheet; a stat it lacks is bad input, never 0 (C8). A "
        "check counts NAME's lasting effects as sources of Advantage or Disadvantage (R20), is "
        "logged (kind `check`) and leaves the Load as it was. `action add NAME ACTION --aspect A "
        "[--cost N] [--extra NdX]...` stores a named action; `act NAME ACTION` uses its Aspect, "
        "Cost (R3), extra dice (R6), DC and sources, and an option typed on the line replaces "
        "that part. `add NAME ... --attribute A=N --side party` gives a new creature a sheet; "
        "`status NAME` shows one creature's whole sheet.",
        "Aria's sheet has Agility 3 and Stealth 2: her check adds +5 to the d20.\n"
        "  d4cli init --from skirmish -f sheet.toml --force\n"
        "  d4cli check Aria --attribute Agility --proficiency Stealth --dc 12 -f sheet.toml\n"
        "  d4cli action add Aria lunge --aspect Finesse --cost 2 --extra 1d6 -f sheet.toml\n"
        "  d4cli act Aria lunge --target 'Goblin Archer' -f sheet.toml\n"
        "  d4cli status Aria -f sheet.toml",
    ),
    "tracker": Topic(
        "Down creatures and one turn per round",
        "R18 R19 R13 R16 R9 R17",
        "At 0 hp a creature is down (R18): the default `turn start` passes it by and says so, "
        "it can neither act nor give a Team Action (refused, exit 3; a GM-called `act --gm` "
        "is allowed, R9), and `status` marks it down. Rolls may still target it; `heal NAME N` above 0 puts it back into the order "
        "(once a `turn end` has ended the round, from the next round: that end is final). "
        "When every creature is down, `turn start` is refused (exit 2): heal one, or name whose "
        "turn starts. Every creature not down has one turn per round (R19): `turn start NAME` "
        "out of order gives NAME its turn now, and the default next turn goes to the next "
        "creature after the one that went last that has neither had its turn this round nor "
        "is down; when all have, the next `turn start` opens the following round. The file "
        "keeps `had_turn` for each creature and `last_turn` (`resume_at` once that creature "
        "was removed, R17).",
        "Borin goes first; then Goblin Brute (the Archer is down), Aria, and round 2.\n"
        "  d4cli init --from skirmish -f down.toml --force\n"
        "  d4cli damage 'Goblin Archer' 7 -f down.toml\n"
        "  d4cli turn start Borin -f down.toml\n"
        "  d4cli turn start -f down.toml\n"
        "  d4cli turn start -f down.toml\n"
        "  d4cli turn start -f down.toml\n"
        "  d4cli act 'Goblin Archer' Finesse -f down.toml   (exit 3: down)\n"
        "  d4cli heal 'Goblin Archer' 3 -f down.toml",
    ),
    "simulate": Topic(
        "Playtesting: the simulator and its policy",
        "R2 R11 R12 R18 R19 R21",
        "`d4cli simulate` plays the encounter from its current state to the end N times per "
        "mode (turn; round resetting to the buffer; round resetting to 0, R12), in memory, "
        "through the same rules as the commands; nothing is written. A turn running in the "
        "file goes on first (its creature takes the actions it still can), then turns follow "
        "R19; the round running counts as round 1 (a file before round 1 starts it). A fight "
        "ends when only one side has a creature up, the winner (R21; with three sides "
        "or more it goes on until one is left), or is a draw after --max-rounds rounds. Every "
        "creature needs a side, a side a creature with hp up, and each creature a named "
        "action without a DC it could afford. A named action is played as `act NAME ACTION "
        "--target T` plays it: its own Advantage and Disadvantage sources join the effects "
        "and Team Action grants, each name counted once (R4); an action with a DC is a check, "
        "never taken. The policy, with its defaults: on its turn a creature picks "
        "a target among the enemies with hp that are up by its target rule, `lowest-hp` by "
        "default (fewest hp, the first in turn order on a tie) or `random`; it takes the named "
        "action with the highest exact expected damage (its pool counting the action's own "
        "net Advantage) against that target's Evasion among "
        "those the gate allows (R2) leaving at least `reserve` headroom (Aspect - Load - Cost "
        ">= reserve; reserve 0 by default), the first listed on a tie; it repeats, choosing "
        "again each time, until none qualifies, no enemy is up or 20 actions. When an enemy "
        "attacks a creature of a side, the first creature of that side in turn order, up and "
        "with `reaction` not none, whose gate allows a Team Action of Cost 1 and whose "
        "reaction rule says yes imposes Disadvantage on the attacker (R11); it pays with the "
        "Aspect `reaction` names, or else with its highest Aspect. The reserve does not apply "
        "to a reaction (that is what the reserve is kept for). The rule `weigh` (the default) "
        "weighs the cost: the creature reacts when its own turn is not still to come this "
        "round with the Load it has now (in turn mode its turn begins with a reset, R1, so "
        "never; in round mode, until it has had its turn, R12), or else when the expected "
        "damage the Disadvantage prevents (the attacker's chosen action against the target's "
        "Evasion, its pool with one die fewer, R5) exceeds the expected damage the reaction "
        "forgoes (its own whole turn at its Load now minus at its Load + 1, each action the "
        "policy's best against the attacker's Evasion, while the gate and reserve allow). "
        '`reaction = "always"` (or `best`, or an Aspect\'s name) is the old rule: react '
        "whenever the gate allows, which in round mode lets the second duellist spend its "
        'round on reactions and never attack; `reaction = "none"` turns reactions off. '
        "Bundled examples: `duel` (round mode, two duellists), `skirmish` (a party that "
        "always wins: a baseline), `ambush` (a fight the party wins about half the time in "
        "turn mode: a sweep on it moves the needle). A creature's "
        '`policy = { target = "random", reserve = 1, reaction = "Wits" }` sets its own; '
        "--target-rule and --reserve set everyone's. The report: win rates, draws and the "
        "share of turns on which a creature could not act carry Wilson 95% intervals (that "
        "share over all turns played, widened to the per-fight interval where that is wider); "
        "rounds to finish (mean, median, 90th percentile, chart) count finished fights only, "
        "draws apart; per-turn and per-round figures count every round played, draws "
        "included, with normal 95% intervals. No figure shows more digits than its interval "
        "supports; one without an interval (a single run) or whose runs all agree shows 2 "
        "significant digits. The same --seed gives the same report for any --jobs, and with "
        "--scheduler ADDRESS (an existing Dask cluster; pip install 'd4cli[cluster]'). "
        "--engine batch (the default) plays many runs at once on arrays; --engine reference "
        "plays one fight at a time through the commands' own transitions. Both follow this "
        "policy; where the batch engine cannot express an encounter (lasting effects on a "
        "creature, R20) the reference engine plays and the report says why. "
        "`d4cli balance` asks the other way round: it plays these fights for each value of "
        "one creature's setting (hp, max_hp, Evasion, Load Buffer, Exhaustion, an Aspect, or "
        "how many of it), all with the same seed, and finds the value that gives a side a "
        "chosen chance to win (bisection, then its neighbours): `d4cli balance --wins party=60 "
        "--vary 'Goblin Chief:hp=5..40'`.",
        "A duel played 200 times per mode; then a sweep of the reserve, as Markdown.\n"
        "  d4cli simulate --from duel --runs 200 --seed 1 --jobs 1\n"
        "  d4cli simulate --from skirmish --runs 100 --sweep reserve=0..2 --format markdown --jobs 1",
    ),
    "odds": Topic(
        "Exact odds",
        "R5 R7 C1-C7 L4",
        "`--odds` on `roll pool`, `roll check` and `act --dry-run` adds the exact distribution "
        "of totals, its mean, the chance of success against the DC (or the expected damage "
        "against an Evasion, and the chance of dealing any) and a bar chart with the bars "
        "that succeed marked `#`. The numbers are computed, not simulated: whole-number "
        "counts of outcomes, so they add up to exactly 1. `d4cli odds pool|check|damage|"
        "compare` prints grids for designers as a table, Markdown, CSV or JSON. A roll with "
        "more than 100,000 possible totals has no odds (L4).",
        "5d4 against DC 12 succeeds with probability 667/1024 = 0.6513671875.\n"
        "  d4cli roll pool 5 --dc 12 --odds\n"
        "  d4cli odds pool --aspect 1..8 --dc 4..20 --format markdown",
    ),
    "limits": Topic(
        "Limits of sane input and names",
        "L1 L2 L3 L4 N1",
        "Aspects, Loads, modifiers and Costs are whole numbers within -1000..1000 (Costs, "
        "Exhaustion and Buffers 0 or more); DCs, Evasion and hp within -100,000..100,000 "
        "(Evasion and hp 0 or more) (L1). One roll throws at most 10,000 dice (L2). Extra "
        "dice are NdX, NdX+M or NdX-M with X from 1 to 1000; a number is typed plainly: "
        "3.0, 3_000, ' 3' and true are refused (L3). Names of creatures and Aspects match "
        "ignoring case and extra spaces, never by prefix; control characters are shown "
        "escaped (N1).",
        "d4cli roll pool 4 --cost 3.0      (exit 2: --cost must be a whole number)",
    ),
    "json": Topic(
        "Machine output",
        "CLI",
        "`--json` prints exactly one JSON object on stdout; with `--times N`, one object per "
        "line (JSON Lines), each written as soon as it is rolled. A pool object carries "
        "kind, aspect, load, cost, allowed, headroom, advantage, disadvantage, net_advantage, "
        "pool_size, dice, extra, total, dc, success, evasion and damage; a check object "
        "carries natural, advantage_dice, advantage_bonus, disadvantage_die, critical, "
        "crit_die, total, dc, success and outcome. `--odds` adds an `odds` object. "
        "`--seed N` (or D4CLI_SEED) makes the dice reproducible.",
        "d4cli roll pool 5 --dc 12 --times 3 --seed 7 --json | jq .total",
    ),
    "player-view": Topic(
        "What the players see: board --players and serve",
        "N1 R2 R13 R16 R18 R19 R20",
        "The players' screens show a projection computed on the GM's side, never the file "
        "itself: the visible creatures in turn order (R13), each by its alias where it has one "
        "(`alias NAME TEXT`; aliases are names under N1 and must differ from every other name "
        "and alias), the round, whose turn it is and who goes next, who has had a turn (R19), "
        "who is down (R18), whether the fight is over (R21), "
        "the public effects with what is left of them (R20), and HP as each creature's display "
        "says: `exact` (the party's default) shows hp and max_hp; `label` (everyone else's) shows "
        "only Healthy, Hurt, Bloodied (at or below half) or Down, and without max_hp only Up or "
        "Down (R16); `none` shows nothing. The party (the side named in `[player_view] party`) "
        "also sees each Aspect's headroom (R2): it can act at Cost N when the headroom is N or "
        "more. The newest rolls follow: the party's with their dice, anyone else's with the "
        "total and how it ended; a DC only with `[player_view] dc_shown = true`. Never shown: "
        "a hidden creature (`add --hidden`, `conceal NAME`; `reveal NAME` shows it again) or "
        "anything about it (while its turn runs, and until a visible creature's turn starts, "
        "the screens keep the last visible state, as it stood before that turn began; its "
        "rolls are left out; an effect timed to its turn names 'a hidden creature'), notes, "
        "Load, stats, a foe's Aspects, an effect added with `--gm-only`, Evasion unless "
        "`evasion_shown = true`. `board --players` draws it in the terminal; `serve` serves it "
        "as a web page for a TV (http://127.0.0.1:8765/, live without reloads) and as /view.json. "
        "`board` alone is the GM's board: everything, hidden things marked, and an odds line: "
        "each side's chance to win from here and how the last change moved it. "
        "`[player_view] odds_shown = true` puts that line on the players' screens too, "
        "computed without the hidden creatures, so it never tells of one.",
        "d4cli init --from skirmish -f view.toml --force\n"
        "  d4cli conceal 'Goblin Brute' -f view.toml\n"
        "  d4cli alias 'Goblin Archer' 'Goblin 2' -f view.toml\n"
        "  d4cli effect add Aria cursed --dis --gm-only -f view.toml\n"
        "  d4cli board --players --once -f view.toml\n"
        "  then, for the TV: d4cli serve -f view.toml   (open http://127.0.0.1:8765/)",
    ),
    "exit-codes": Topic(
        "Exit codes",
        "CLI R2 C4",
        "0: done (a roll that misses its DC still exits 0). 2: bad input, with one plain "
        "line on stderr naming the option or field and the value; nothing is printed on "
        "stdout and no file changes. 3: refused by the rules, either the gate (R2) or an "
        "impossible check (C4); nothing is rolled, but --json still prints the object that "
        "says why. 1: the output could not be written (a full disk; the message says any "
        "change was saved), or an internal error, which should never happen. A reader that "
        "goes away (`d4cli status | head -1`) is not an error: exit 0.",
        "d4cli roll pool 2 --load 1 --cost 2; echo $?      (prints 3)",
    ),
}
