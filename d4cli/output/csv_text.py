"""CSV for a spreadsheet (``--format csv``): one writer for every report that has a CSV form.

RFC 4180 quoting by the standard library's `csv`, ``\\n`` between rows, no newline after the
last (the command prints one). Plain text, no Rich.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any


def csv_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """*header*, then each of *rows*, as CSV text."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().rstrip("\n")
