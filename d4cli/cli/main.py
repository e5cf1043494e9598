"""Entry point of the ``d4cli`` console script and ``python -m d4cli``."""

from __future__ import annotations

from d4cli.cli.app import app


def main(argv: list[str] | None = None) -> None:
    """Run d4cli with *argv* (default: the process arguments) and exit with its code."""

    app(args=argv, prog_name="d4cli")
