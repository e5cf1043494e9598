"""What changed for a seat's request between its sending and its approval: the encounter the
player saw (`Seen`, kept with the request) against the encounter as it stands (`changes`).

A request is judged twice: when the seat sends it (the gate, R2, and the rest, on the encounter
then) and when the GM approves it, maybe much later. Meanwhile the target may have fallen (R18),
the Load may have grown so the pool shrank (R5, R8), an effect may have ended or begun (R20), the
turn may have moved (R13). `changes` lists each such difference as a record; the GM is asked
before carrying the request out (``approve --yes``), and a denial tells the seat the same.

`Seen` holds only what the seat itself may see: effect sources the players may not read are
named as the seat's own page names them (`d4cli.fight.players_view.shown_sources`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from d4cli.fight.actions import ActRecord
from d4cli.fight.encounter_state import Encounter
from d4cli.fight.players_view import public_sources, shown_sources

# The kinds of `Changed`, in the order `changes` lists them.
KINDS = ("target_down", "turn", "load", "pool", "effect_ended", "effect_began")


class Seen(NamedTuple):
    """A request as the player saw it (or as it would be carried out now).

    Attributes:
        round: the round (R13).
        turn: whose turn it was (None between turns).
        load: the actor's Load before the act (R8).
        pool: the pool's d4s (R5); 0 when the gate refused (R2) or the actor is down (R18).
        effects: ``(source, grant)`` of each effect or Team Action grant the roll counts (R4,
            R11, R20), as the seat may see its source; sorted.
        target_down: the target is down (R18); False without a target.
    """

    round: int
    turn: str | None
    load: int
    pool: int
    effects: tuple[tuple[str, str], ...]
    target_down: bool


class Changed(NamedTuple):
    """One difference between `Seen` then and now: its *kind* (one of `KINDS`), the value the
    player saw and the value now (for an effect: its ``(source, grant)`` on one side, None on
    the other; for ``turn``: ``(round, turn)`` pairs)."""

    kind: str
    before: Any
    after: Any


def seen(encounter: Encounter, record: ActRecord) -> Seen:
    """What *record* (an act judged on *encounter*, the state before it) shows the seat."""
    present = [c for c in encounter.creatures if c.name in (record.actor, record.target)]
    sources = shown_sources(record.sources, public_sources(present))
    counted = {(source, grant) for source, grant, origin in sources if origin != "command"}
    refused = record.actor_down or not record.result.plan.gate.allowed
    return Seen(
        round=record.round,
        turn=record.turn,
        load=record.load_before,
        pool=0 if refused else record.result.plan.size.size,
        effects=tuple(sorted(counted)),
        target_down=record.target_down,
    )


def seen_json(value: Seen) -> dict[str, Any]:
    """*value* as ``PATH.requests`` keeps it (plain JSON)."""
    return {
        "round": value.round,
        "turn": value.turn,
        "load": value.load,
        "pool": value.pool,
        "effects": [list(pair) for pair in value.effects],
        "target_is_down": value.target_down,  # not the journal's own fact of that name
    }


def read_seen(value: Mapping[str, Any] | None) -> Seen | None:
    """The `Seen` kept as *value* (`seen_json`), or None: none kept (a request sent before it was
    kept), or a value a hand edit broke (the request is then judged as it stands, unasked)."""
    if value is None:
        return None
    try:
        effects = tuple(sorted((str(s), str(g)) for s, g in value["effects"]))
        turn = value["turn"]
        return Seen(
            round=int(value["round"]),
            turn=None if turn is None else str(turn),
            load=int(value["load"]),
            pool=int(value["pool"]),
            effects=effects,
            target_down=bool(value["target_is_down"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


def changes(then: Seen, now: Seen) -> tuple[Changed, ...]:
    """Every difference between what the player saw (*then*) and the encounter now (*now*), in
    the order of `KINDS`; () when nothing that matters to the request changed. A target down
    now is always listed (R18: the attack would spend Load and do nothing). The Load counts
    only where it changed the pool (R5: a Load below zero never enlarges it)."""
    found: list[Changed] = []
    if now.target_down:  # down then too: an attack that only spends Load (R18) is never silent
        found.append(Changed("target_down", then.target_down, True))
    if (then.round, then.turn) != (now.round, now.turn):
        found.append(Changed("turn", (then.round, then.turn), (now.round, now.turn)))
    if then.pool != now.pool:  # a Load that moved and left the pool as it was changes nothing
        if then.load != now.load:
            found.append(Changed("load", then.load, now.load))
        found.append(Changed("pool", then.pool, now.pool))
    found.extend(Changed("effect_ended", e, None) for e in then.effects if e not in now.effects)
    found.extend(Changed("effect_began", None, e) for e in now.effects if e not in then.effects)
    return tuple(found)
