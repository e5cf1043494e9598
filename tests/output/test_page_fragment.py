"""The page's fragment (`d4cli.output.page.view_fragment`) with real values: who goes next, the fight's
end, what the party can still act with, the roll feed, and the row the script keeps in view."""

from __future__ import annotations

from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.players_view import PublicRoll, public_view
from d4cli.output.page import view_fragment


def _c(name: str, side: str, **fields: object) -> Creature:
    return Creature(name, (("Finesse", 4),), side=side, **fields)  # type: ignore[arg-type]


ROLL = PublicRoll(4, "act", 2, "Aria", True, ("dagger",), (2, 3), (("1d4", (1,)),), 6,
                  "Goblin 2", None, None, "damage", None, None)  # fmt: skip


def test_the_fragment_says_who_goes_next_and_keeps_the_current_row_in_focus():
    encounter = Encounter(
        "Mill",
        round=2,
        current="Borin",
        last_turn="Borin",
        creatures=(
            _c("Aria", "party", had_turn=True, load=2),
            _c("Borin", "party", had_turn=True),
            _c("Shade", "foes", hidden=True),
            _c("Goblin Archer", "foes", alias="Goblin 2", hp=3, max_hp=7),
        ),
    )
    html = view_fragment(public_view(encounter, (ROLL,)))
    assert '<span class="now">Now: Borin</span><span class="next">Next: Goblin 2</span>' in html
    assert '<ol class="order" data-focus="1">' in html
    assert '<li class="creature next">' in html  # Goblin 2's row, outlined
    assert (
        '<span class="label">Can still act:</span> <span class="room ok">Finesse: 2 left</span>'
        in html
    )
    assert (
        '<li class="roll"><span class="actor">Aria</span> <span class="step">dagger</span> '
        '<span class="step">dice 2 3</span> <span class="step">1d4: 1</span> '
        '<span class="step">total 6</span> <span class="step">vs Goblin 2</span> '
        '<span class="step">hit</span></li>'
    ) in html
    assert "Shade" not in html and "Goblin Archer" not in html and "over" not in html


def test_a_fight_that_is_over_says_so_on_its_own_line():
    encounter = Encounter(
        "Mill", round=3, creatures=(_c("Aria", "party", hp=4), _c("Goblin", "foes", hp=0))
    )
    html = view_fragment(public_view(encounter))
    assert '<p class="over">The fight is over: party wins</p>' in html
    assert '<span class="now">Between turns</span><span class="next">Next: Aria</span>' in html
    assert "Rolls" not in html  # no feed without rolls
