"""`changes`: what changed for a seat's request between its sending and its approval, judged on
plain records (the target down, the turn, the Load and so the pool, effects ending and beginning)."""

from __future__ import annotations

from d4cli.fight.request_sight import Changed, Seen, changes, read_seen, seen_json

THEN = Seen(
    round=1,
    turn="Aria",
    load=0,
    pool=5,
    effects=(("blessed", "advantage"),),
    target_down=False,
)


def test_nothing_changed_is_no_change():
    assert changes(THEN, THEN) == ()


def test_each_difference_is_named_in_order():
    now = THEN._replace(
        round=2,
        turn="Goblin Archer",
        load=2,
        pool=3,
        effects=(("smoke", "disadvantage"),),
        target_down=True,
    )
    assert changes(THEN, now) == (
        Changed("target_down", False, True),
        Changed("turn", (1, "Aria"), (2, "Goblin Archer")),
        Changed("load", 0, 2),
        Changed("pool", 5, 3),
        Changed("effect_ended", ("blessed", "advantage"), None),
        Changed("effect_began", None, ("smoke", "disadvantage")),
    )


def test_a_load_that_left_the_pool_as_it_was_is_no_change():
    assert changes(THEN, THEN._replace(load=-1)) == ()
    assert changes(THEN, THEN._replace(load=2, pool=3)) == (
        Changed("load", 0, 2),
        Changed("pool", 5, 3),
    )


def test_a_target_down_now_is_always_named_and_one_healed_is_not():
    down = THEN._replace(target_down=True)
    # Down when sent too: carrying it out would still spend Load for nothing (R18).
    assert changes(down, down) == (Changed("target_down", True, True),)
    assert changes(down, THEN) == ()  # healed meanwhile: the attack does what the player meant


def test_the_seen_record_keeps_as_json_and_a_broken_one_reads_as_none():
    assert read_seen(seen_json(THEN)) == THEN
    assert read_seen(None) is None
    assert read_seen({"round": "x"}) is None
    assert read_seen({**seen_json(THEN), "effects": [["only-one"]]}) is None
