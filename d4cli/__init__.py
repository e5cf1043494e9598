"""d4cli: dice roller and encounter turn-tracker for the D4 dice pool and the d20 Action Roll."""

__version__ = "0.1.0"
