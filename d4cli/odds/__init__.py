"""Exact odds: distributions of roll totals, sums of dice, the odds of a pool roll and of an Action Roll, pools of growing size and the designers' grids."""
