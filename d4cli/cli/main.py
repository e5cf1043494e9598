"""Entry point of the ``d4cli`` console script and ``python -m d4cli``."""

from __future__ import annotations

import gc


def main(argv: list[str] | None = None) -> None:
    """Run d4cli with *argv* (default: the process arguments) and exit with its code.

    Start-up: the cyclic garbage collector is paused while the modules
    load and the command is built (long-lived objects only, nothing to collect);
    the command itself runs with it on (`d4cli.cli.lazy.start_collecting`). At exit
    everything is frozen, so the interpreter's last full collection has nothing
    to scan; atexit handlers and finalizers still run.
    """
    gc.disable()
    try:
        from d4cli.cli.app import app

        app(args=argv, prog_name="d4cli")
    finally:
        gc.freeze()
