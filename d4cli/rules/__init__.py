"""The rules of the D4 dice pool and the d20 Action Roll as pure functions on plain records: dice, the pool and its gate, the Action Roll, DC tiers, limits and names."""
