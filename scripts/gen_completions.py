"""Write the shell completion scripts in ``completions/`` from the app.

    python scripts/gen_completions.py          # (re)write completions/
    python scripts/gen_completions.py --check  # exit 1 if completions/ is out of date

The scripts are the ones ``d4cli --install-completion`` installs (and
``_D4CLI_COMPLETE=source_bash d4cli`` prints): d4cli's own shell classes in
`d4cli.cli.completion`, which quote names for the shell.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "completions"

# Shell -> file name, as each shell looks for it (zsh autoloads `_d4cli` from $fpath).
FILES: dict[str, str] = {"bash": "d4cli.bash", "zsh": "_d4cli", "fish": "d4cli.fish"}


def generate() -> dict[str, str]:
    """File name -> content of every completion script."""
    from d4cli.cli.completion.shells import completion_script

    return {name: completion_script(shell) + "\n" for shell, name in FILES.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="Only compare; exit 1 on a difference."
    )
    args = parser.parse_args(argv)
    stale = []
    for name, text in generate().items():
        path = FOLDER / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(name)
        if not args.check:
            FOLDER.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("completions/ is out of date: " + ", ".join(stale), file=sys.stderr)
        print("run: python scripts/gen_completions.py", file=sys.stderr)
        return 1
    for name in stale:
        print(f"wrote completions/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
