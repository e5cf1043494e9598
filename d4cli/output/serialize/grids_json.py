"""The designers' odds grids as JSON: the ``d4cli odds --json`` object (R5-R7, C1-C6)."""

from __future__ import annotations

from d4cli.odds.grids import Grid
from d4cli.output.gridtext import grid_title, row_label
from d4cli.output.serialize import JsonObject


def grid_json(grid: Grid) -> JsonObject:
    """A grid as one JSON object: ``kind`` (``"odds"``), ``table``, ``title``, ``quantity``,
    ``column``, ``columns``, ``rows``, ``settings``.

    Each row is ``{"label": ..., <its keys>..., "values": [...]}`` with one
    value per column (floats: P(success) or expected damage, as ``quantity``
    says); ``column`` names what the columns are (``dc``, ``evasion``);
    ``settings`` maps each fixed input to its value (tuples as lists).
    """
    return {
        "kind": "odds",
        "table": grid.kind,
        "title": grid_title(grid),
        "quantity": grid.quantity,
        "column": grid.column_key,
        "columns": list(grid.columns),
        "rows": [
            {"label": row_label(grid, row), **dict(row.keys), "values": list(row.values)}
            for row in grid.rows
        ],
        "settings": {
            key: list(value) if isinstance(value, tuple) else value for key, value in grid.settings
        },
    }
