"""Which mode a ``d4cli play`` session runs in: the prompt on a terminal, else the piped lines.

The interactive prompt (`d4cli.cli.play_prompt`, prompt_toolkit) is imported only on a
terminal, so a piped session never loads the line editor.
"""

from __future__ import annotations

import os
import sys

from d4cli.cli.play_session import Session, check_file, read_lines, run_piped


def run_session(path: str | None) -> int:
    """Run a session on stdin (interactive on a terminal, else piped); its exit code.

    With *path*, commands that take ``--file`` use it unless a line names another
    (through ``D4CLI_FILE`` for the session's duration).

    Raises:
        FileError: *path* (or the default file) exists but is not a readable encounter.
    """

    check_file(path)
    if path is not None:
        os.environ["D4CLI_FILE"] = path
    session = Session(path)
    stdin = sys.stdin
    if stdin is None or stdin.closed:
        return 0
    if not stdin.isatty():
        return run_piped(session, read_lines(stdin))
    from d4cli.cli.play_prompt import interact  # prompt_toolkit: on a terminal only

    return interact(session)
