"""Where the GM's bestiary is: ``D4CLI_BESTIARY``, else ``bestiary`` in the user's config folder
for d4cli as the platform defines it (`platformdirs`: ``~/.config/d4cli/bestiary`` on Linux).

Imported at the boundary of the commands that read the bestiary (``bestiary``, ``next``, and
``add --from``, ``init --from`` when given), never on another command's start-up.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

BESTIARY_ENV = "D4CLI_BESTIARY"


def bestiary_folder() -> Path:
    """The bestiary folder: ``D4CLI_BESTIARY`` when set and not empty, else the user's one."""
    given = os.environ.get(BESTIARY_ENV)
    if given:
        return Path(given)
    return platformdirs.user_config_path("d4cli") / "bestiary"
