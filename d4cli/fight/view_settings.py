"""The file's ``[player_view]`` table (schema 3): the party's side and the default HP displays.

Plain values only (no creature, no encounter): `d4cli.fight.encounter_state.Encounter`
holds one, and `d4cli.fight.players_view` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from d4cli.rules.names import fold_name

# How a creature's HP reaches the players: the number, a label (Healthy, Hurt, Bloodied, Down), nothing.
HP_SHOWN: tuple[str, ...] = ("exact", "label", "none")
DEFAULT_PARTY = "party"
# What a seat's action request does: wait for the GM's approval, or be carried out at once.
SEAT_MODES: tuple[str, ...] = ("approve", "auto")


@dataclass(frozen=True)
class PlayerView:
    """The ``[player_view]`` table.

    Attributes:
        party: the side (N1 folding) whose creatures are the party: they see their headroom (R2).
        party_hp: the party's default HP display, one of `HP_SHOWN` (``exact``).
        others_hp: everyone else's default HP display (``label``).
        seats: what a seat's action request does, one of `SEAT_MODES`: ``approve`` (queued for
            the GM, the default) or ``auto`` (carried out at once when the rules allow it).
        dc_shown: the players' roll feed shows a roll's DC (R7, C2); else it says only
            whether the roll met it.
        odds_shown: the players' screens show each side's chance to win too (default
            false); computed without the hidden creatures, so the odds never tell of them.
    """

    party: str = DEFAULT_PARTY
    party_hp: str = "exact"
    others_hp: str = "label"
    seats: str = "approve"
    dc_shown: bool = False
    odds_shown: bool = False

    def is_party(self, side: str) -> bool:
        """*side* is the party's (N1 folding); no side ("") never is."""
        return bool(side) and fold_name(side) == fold_name(self.party)

    def hp_shown(self, side: str, own: str | None) -> str:
        """The HP display of a creature of *side* whose own ``hp_shown`` is *own* (None: the side's default)."""
        if own is not None:
            return own
        return self.party_hp if self.is_party(side) else self.others_hp
