"""The fight model: the encounter and its creatures as frozen values, effects, turns, actions, hit points, sheets and their checks, and the change events every transition returns."""
