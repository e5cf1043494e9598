"""Ctrl-C during JSON Lines output takes effect between two lines, never inside one.

docs/cli.md: with ``--times N --json`` each line is one whole JSON object. Python
raises KeyboardInterrupt wherever the interpreter is when SIGINT arrives; and a
signal that interrupts Python's buffered write into a full pipe can cut the block
short even when its handler raises nothing (measured on 3.11: a reader got 128 KiB
of a 630 KiB block, the rest gone, the last line torn). Inside `LineBoundary`
SIGINT is only noted, blocks of whole lines go to the file descriptor with a plain
`os.write` loop (a partial write goes on where it stopped), and the writer asks
`LineBoundary.check` after each block: there the run stops, exit 130 as for any
Ctrl-C (Click turns the KeyboardInterrupt into an abort).
"""

from __future__ import annotations

import io
import os
import signal
import threading
from types import FrameType, TracebackType
from typing import Any


class LineBoundary:
    """Defer SIGINT to the next `check` while JSON Lines are written; write them whole.

    Only where Python's own Ctrl-C handler is in force, in the main thread: an
    ignored SIGINT (a job started with ``nohup`` or ``&``) stays ignored, and a
    handler of the caller's is left alone.
    """

    def __init__(self) -> None:
        self.pending = False
        self._installed = False

    def __enter__(self) -> LineBoundary:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            signal.signal(signal.SIGINT, self._note)
            self._installed = True
        return self

    def _note(self, signum: int, frame: FrameType | None) -> None:
        self.pending = True

    def write(self, stream: Any, text: str) -> None:
        """Write *text*, whole lines of ASCII JSON, to *stream*, and the run stops here on Ctrl-C.

        To the stream's file descriptor when it has one (after flushing what the
        stream holds), else through the stream (a test's captured output).

        Raises:
            KeyboardInterrupt: SIGINT arrived; every line written is whole.
            BrokenPipeError: the reader went away.
        """
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            fd = None
        if fd is None:
            stream.write(text)
            stream.flush()
        else:
            stream.flush()
            view = memoryview(text.encode("ascii", "backslashreplace"))
            while view:
                view = view[os.write(fd, view) :]
        if self.pending:
            raise KeyboardInterrupt

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self._installed = False
