"""Tab completion: the value completers and the shell classes (docs/cli.md).

The completers return plain values (``"Goblin Archer"``); the shell classes
below quote them for the shell that asked, so a name with spaces, a colon or
non-ASCII letters completes into exactly one shell word. A completer never
raises and never writes: a missing or damaged encounter file simply gives no
candidates (exit 0, nothing on stderr).

Creature names come from the encounter file named by ``--file/-f`` already
typed on the line, else ``D4CLI_FILE``, else ``./encounter.toml``; matching
follows N1 (`d4cli.names.fold_name`), by prefix.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

FORMATS: tuple[str, ...] = ("table", "markdown", "csv", "json")

# Parameter names under which commands keep the encounter path and the creature.
_FILE_PARAMS = ("file", "file_", "path", "encounter", "encounter_file")
_CREATURE_PARAMS = ("name", "actor", "creature")


class Candidate(str):
    """A completion value that matches what was typed by N1 folding, not exact case.

    Typer keeps a completer's value only when ``value.startswith(incomplete)``;
    this makes that test the N1 one (``gob`` completes to ``Goblin Archer``).
    """

    __slots__ = ()

    def startswith(self, prefix: Any, *args: Any) -> bool:  # type: ignore[override]
        if isinstance(prefix, str) and not args:
            from d4cli.names import fold_name

            return fold_name(self).startswith(fold_name(prefix))
        return str.startswith(self, prefix, *args)


def _matching(candidates: Iterable[str], incomplete: str) -> list[str]:
    """The candidates whose folded form starts with the folded *incomplete* (N1)."""
    from d4cli.names import fold_name

    wanted = fold_name(incomplete or "")
    out: list[str] = []
    for candidate in candidates:
        if fold_name(candidate).startswith(wanted) and candidate not in out:
            out.append(Candidate(candidate))
    return out


# The words already typed on the line (set by the shell classes below). Click drops every
# parsed value when the line ends in an option still waiting for its value
# (``team A B --aspect <Tab>``), so the completers fall back on these.
_typed_words: list[str] = []


def _typed_file(ctx: Any) -> str | None:
    """The ``--file`` value already typed on the line, looking up the context chain."""
    while ctx is not None:
        params = getattr(ctx, "params", None) or {}
        for key in _FILE_PARAMS:
            value = params.get(key)
            if value:
                return str(value)
        ctx = getattr(ctx, "parent", None)
    words = _typed_words
    for index, word in enumerate(words):
        if word in ("--file", "-f") and index + 1 < len(words):
            return words[index + 1]
        if word.startswith("--file="):
            return word[len("--file="):]
        if word.startswith("-f") and len(word) > 2 and not word.startswith("--"):
            return word[2:]
    return None


def _encounter(ctx: Any) -> Any:
    """The encounter named on the line (or by D4CLI_FILE / ./encounter.toml), or None."""
    try:
        from d4cli import store

        value = _typed_file(ctx)
        resolve = getattr(store, "resolve_path", None)
        if resolve is not None:
            path = resolve(value)
        else:  # pragma: no cover - only while the store is being written
            path = value or os.environ.get("D4CLI_FILE") or "encounter.toml"
        return store.read_encounter(path)
    except BaseException:  # noqa: BLE001 - a completer must never fail or print
        return None


def _creatures(ctx: Any) -> list[Any]:
    encounter = _encounter(ctx)
    if encounter is None:
        return []
    try:
        return list(encounter.creatures)
    except Exception:  # noqa: BLE001
        return []


def complete_creature(ctx: Any, incomplete: str) -> list[str]:
    """Names of the creatures in the encounter file that start with *incomplete* (N1)."""
    try:
        return _matching((str(c.name) for c in _creatures(ctx)), incomplete)
    except Exception:  # noqa: BLE001
        return []


def _named_creature(ctx: Any, creatures: list[Any]) -> Any:
    """The creature named earlier on the line: a NAME/ACTOR argument, else any typed name."""
    from d4cli.names import fold_name

    by_key = {fold_name(str(c.name)): c for c in creatures}
    params = getattr(ctx, "params", None) or {}
    ordered = [params.get(key) for key in _CREATURE_PARAMS]
    command = getattr(ctx, "command", None)
    for param in getattr(command, "params", None) or ():
        ordered.append(params.get(getattr(param, "name", None) or ""))
    ordered.extend(_typed_words)
    for value in ordered:
        if isinstance(value, str) and fold_name(value) in by_key:
            return by_key[fold_name(value)]
    return None


def complete_aspect(ctx: Any, incomplete: str) -> list[str]:
    """Aspects of the creature named earlier on the line that start with *incomplete*.

    The creature is the NAME/ACTOR argument when Click parsed it; on
    ``team ACTOR TARGET --aspect <Tab>`` Click stops at the option still waiting
    for its value and ACTOR never reaches ``ctx.params``, so the words typed on
    the line (`_typed_words`) are searched too, first creature named first.
    """
    try:
        creatures = _creatures(ctx)
        creature = _named_creature(ctx, creatures)
        if creature is None:
            return []
        return _matching((str(name) for name in dict(creature.aspects)), incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_effect_source(ctx: Any, incomplete: str) -> list[str]:
    """Sources of the lasting effects (R20) of the creature named earlier on the line."""
    try:
        creature = _named_creature(ctx, _creatures(ctx))
        if creature is None:
            return []
        return _matching((str(effect.source) for effect in creature.effects), incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_example(incomplete: str) -> list[str]:
    """Names of the bundled example encounters (``d4cli/examples/*.toml``)."""
    try:
        from pathlib import Path

        folder = Path(__file__).resolve().parent / "examples"
        names = sorted(path.stem for path in folder.glob("*.toml"))
        return _matching(names, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_dc_tier(incomplete: str) -> list[str]:
    """The named Difficulty Classes (C2) that start with *incomplete*."""
    try:
        from d4cli.check import DC_TIERS

        return _matching(DC_TIERS, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_topic(incomplete: str) -> list[str]:
    """The ``d4cli help`` topics that start with *incomplete*."""
    try:
        from d4cli.helptext import TOPICS

        return _matching(TOPICS, incomplete)
    except Exception:  # noqa: BLE001
        return []


def complete_format(incomplete: str) -> list[str]:
    """The output formats (table, markdown, csv, json) that start with *incomplete*."""
    return _matching(FORMATS, incomplete)


def complete_mode(incomplete: str) -> list[str]:
    """The Load reset modes (turn, round; R12) that start with *incomplete*."""
    return _matching(("turn", "round"), incomplete)


def complete_other_creature(ctx: Any, incomplete: str) -> list[str]:
    """`complete_creature` without the creature named earlier on the line (a target is someone else)."""
    try:
        creatures = _creatures(ctx)
        actor = _named_creature(ctx, creatures)
        names = (str(c.name) for c in creatures if actor is None or c is not actor)
        return _matching(names, incomplete)
    except Exception:  # noqa: BLE001
        return []


# --- Shell classes ---------------------------------------------------------------------------
#
# Typer's own bash class prints values unquoted, so "Goblin Archer" would become two words
# and bash would split "Orc: Chief" at the colon (COMP_WORDBREAKS). Ours send the raw line
# (COMP_LINE/COMP_POINT) and answer with exactly the text readline will replace, quoted for
# bash. zsh and fish receive plain values and quote them themselves (compadd, complete).

BASH_SCRIPT = r"""
%(complete_func)s() {
    local IFS=$'\n'
    COMPREPLY=()
    mapfile -t COMPREPLY < <(env COMP_LINE="$COMP_LINE" COMP_POINT="$COMP_POINT" \
        COMP_WORDBREAKS="$COMP_WORDBREAKS" %(autocomplete_var)s=complete_bash "$1" 2>/dev/null)
    if [[ ${#COMPREPLY[@]} -eq 1 && -z ${COMPREPLY[0]} ]]; then
        COMPREPLY=()
    fi
    return 0
}

complete -o default -F %(complete_func)s %(prog_name)s
"""

ZSH_SCRIPT = r"""#compdef %(prog_name)s

%(complete_func)s() {
    local -a response values displays
    local line
    response=("${(@f)$(env _D4CLI_COMPLETE_ARGS="${(pj:\n:)${(@Q)words[2,CURRENT-1]}}" \
        _D4CLI_COMPLETE_INCOMPLETE="${(Q)PREFIX}" \
        %(autocomplete_var)s=complete_zsh "${words[1]}" 2>/dev/null)}")
    for line in "${response[@]}"; do
        case "$line" in
            '') ;;
            $'\x01'file) _files; return ;;
            $'\x01'dir) _files -/; return ;;
            *$'\t'*) values+=("${line%%%%$'\t'*}"); displays+=("${line%%%%$'\t'*}  -- ${line#*$'\t'}") ;;
            *) values+=("$line"); displays+=("$line") ;;
        esac
    done
    if (( ${#values} )); then
        compadd -U -V d4cli -l -d displays -- "${values[@]}"
    else
        _files
    fi
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    %(complete_func)s "$@"
else
    compdef %(complete_func)s %(prog_name)s
fi
"""

FISH_SCRIPT = r"""function %(complete_func)s
    set -l words (commandline -opc)
    set -e words[1]
    set -l response (env _D4CLI_COMPLETE_ARGS=(string join \x1f -- $words) \
        _D4CLI_COMPLETE_INCOMPLETE=(commandline -ct) %(autocomplete_var)s=complete_fish \
        %(prog_name)s 2>/dev/null)
    for line in $response
        switch $line
            case \x01file \x01dir
                __fish_complete_path (commandline -ct)
                return
            case '*'
                printf '%%s\n' $line
        end
    end
    if test (count $response) -eq 0
        __fish_complete_path (commandline -ct)
    end
end

complete --command %(prog_name)s --no-files --arguments "(%(complete_func)s)"
"""

SCRIPTS: dict[str, str] = {"bash": BASH_SCRIPT, "zsh": ZSH_SCRIPT, "fish": FISH_SCRIPT}

DEFAULT_WORDBREAKS = " \t\n\"'@><=;|&(:"
# Characters a value may keep unquoted in bash (non-ASCII letters are kept as they are).
_BASH_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/+%@^")


class TypedWord:
    """The word being completed, as typed: what the shell will replace and how it is quoted.

    Attributes:
        value: the word with its quoting removed (what the program would receive).
        kept: the value of the part readline keeps (before the last word break,
            such as ``--dc=`` or ``Orc:``); the reply replaces only what follows.
        quote: the quote left open at the cursor (``'`` or ``"``), or "".
    """

    __slots__ = ("kept", "quote", "value")

    def __init__(self, value: str, kept: str, quote: str) -> None:
        self.value = value
        self.kept = kept
        self.quote = quote

    def __repr__(self) -> str:
        return f"TypedWord({self.value!r}, kept={self.kept!r}, quote={self.quote!r})"


def split_line(line: str, wordbreaks: str = DEFAULT_WORDBREAKS) -> tuple[list[str], TypedWord]:
    """Split a command line up to the cursor the way bash and readline do.

    Returns the finished words (quoting removed) and the word under the cursor.
    Lenient: an open quote or a trailing backslash is not an error.
    """
    breaks = set(wordbreaks) - set(" \t\n\"'")
    words: list[str] = []
    value: list[str] = []
    kept_len = 0  # length of `value` that readline keeps
    in_word = False
    quote = ""
    i = 0
    while i < len(line):
        char = line[i]
        if quote == "'":
            if char == "'":
                quote = ""
            else:
                value.append(char)
        elif quote == '"':
            if char == '"':
                quote = ""
            elif char == "\\" and i + 1 < len(line) and line[i + 1] in '"\\$`\n':
                i += 1
                value.append(line[i])
            else:
                value.append(char)
        elif char in " \t\n":
            if in_word:
                words.append("".join(value))
            value, kept_len, in_word = [], 0, False
        elif char == "\\":
            in_word = True
            if i + 1 < len(line):
                i += 1
                value.append(line[i])
        elif char in "'\"":
            in_word = True
            quote = char
            kept_len = len(value)  # readline completes what follows an open quote
        else:
            in_word = True
            value.append(char)
            if char in breaks:
                kept_len = len(value)
        i += 1
    current = "".join(value)
    kept = current[:kept_len] if quote or kept_len <= len(current) else ""
    return words, TypedWord(current, kept, quote)


def line_to_cursor(raw: bytes, point: str) -> str:
    """COMP_LINE up to COMP_POINT. bash counts the point in characters under a UTF-8
    locale and in bytes otherwise."""
    text = raw.decode("utf-8", "surrogateescape")
    try:
        index = int(point)
    except ValueError:
        return text
    if index >= len(raw):
        return text
    locale = os.environ.get("LC_ALL") or os.environ.get("LC_CTYPE") or os.environ.get("LANG") or ""
    if "utf" in locale.lower().replace("-", ""):
        return text[:index]
    return raw[:index].decode("utf-8", "surrogateescape")


def bash_quote(text: str, quote: str = "") -> str:
    """*text* as bash must read it back as (part of) one word, inside an open *quote* if any."""
    if quote == "'":
        return text.replace("'", "'\\''")
    if quote == '"':
        return "".join("\\" + c if c in '"\\$`' else c for c in text)
    return "".join(c if c in _BASH_SAFE or (ord(c) > 127 and c.isprintable()) else "\\" + c for c in text)


def _option_head(value: str) -> str:
    """``--dc=`` for ``--dc=ha``: the part Click splits off before completing the value."""
    if value.startswith("-") and "=" in value:
        return value.partition("=")[0] + "="
    return ""


def _is_path_item(item: Any) -> str:
    kind = getattr(item, "type", "plain")
    return kind if kind in ("file", "dir") else ""


def _shell_classes() -> list[Any]:
    from typer._completion_classes import BashComplete, FishComplete, ZshComplete

    class D4BashComplete(BashComplete):
        """bash: reads COMP_LINE/COMP_POINT; replies with the quoted text readline replaces."""

        source_template = BASH_SCRIPT

        def get_completion_args(self) -> tuple[list[str], str]:
            line = line_to_cursor(os.environb.get(b"COMP_LINE", b""), os.environ.get("COMP_POINT", ""))
            words, self.typed = split_line(line, os.environ.get("COMP_WORDBREAKS", DEFAULT_WORDBREAKS))
            _typed_words[:] = words[1:]
            return words[1:], self.typed.value

        def complete(self) -> str:
            args, incomplete = self.get_completion_args()
            typed = self.typed
            head = _option_head(incomplete)
            from d4cli.names import fold_name

            replies: list[str] = []
            for item in self.get_completions(args, incomplete):
                if _is_path_item(item):
                    return ""  # bash falls back to file names (complete -o default)
                full = head + str(item.value)
                kept = full[: len(typed.kept)]
                if fold_name(kept) != fold_name(typed.kept) and kept != typed.kept:
                    continue
                reply = bash_quote(full[len(typed.kept):], typed.quote)
                if reply not in replies:
                    replies.append(reply)
            return "\n".join(replies)

    def _plain_lines(comp: Any, args: list[str], incomplete: str) -> str:
        head = _option_head(incomplete)
        lines: list[str] = []
        for item in comp.get_completions(args, incomplete):
            kind = _is_path_item(item)
            if kind:
                return "\x01" + kind
            value = (head + str(item.value)).replace("\n", " ")
            help_text = " ".join(str(item.help).split()) if item.help else ""
            lines.append(f"{value}\t{help_text}" if help_text else value)
        return "\n".join(lines)

    def _args_from_env() -> tuple[list[str], str]:
        joined = os.environ.get("_D4CLI_COMPLETE_ARGS", "")
        args = [word for word in joined.replace("\x1f", "\n").split("\n") if word] if joined else []
        incomplete = os.environ.get("_D4CLI_COMPLETE_INCOMPLETE", "")
        if incomplete[:1] in ("'", '"'):
            incomplete = split_line(incomplete)[1].value
        _typed_words[:] = args
        return args, incomplete

    class D4ZshComplete(ZshComplete):
        """zsh: plain values (and help) one a line; compadd quotes them."""

        source_template = ZSH_SCRIPT

        def get_completion_args(self) -> tuple[list[str], str]:
            return _args_from_env()

        def complete(self) -> str:
            args, incomplete = self.get_completion_args()
            return _plain_lines(self, args, incomplete)

    class D4FishComplete(FishComplete):
        """fish: plain ``value<TAB>help`` lines; fish quotes them."""

        source_template = FISH_SCRIPT

        def get_completion_args(self) -> tuple[list[str], str]:
            return _args_from_env()

        def complete(self) -> str:
            args, incomplete = self.get_completion_args()
            return _plain_lines(self, args, incomplete)

    return [D4BashComplete, D4ZshComplete, D4FishComplete]


_registered = False


def use_d4_shells() -> None:
    """Register d4cli's bash, zsh and fish classes (over Typer's) for completion requests,
    ``_D4CLI_COMPLETE=source_bash`` and ``--show-completion`` / ``--install-completion``."""
    global _registered
    if _registered:
        return
    from typer import _completion_shared
    from typer._click.shell_completion import add_completion_class
    from typer._completion_classes import completion_init

    completion_init()
    for cls in _shell_classes():
        add_completion_class(cls, cls.name)
        # Typer's --install-completion/--show-completion read this table.
        _completion_shared._completion_scripts[cls.name] = cls.source_template
    _registered = True


def completion_script(shell: str, prog_name: str = "d4cli") -> str:
    """The completion script for *shell* (bash, zsh, fish), as ``completions/`` holds it."""
    from typer import _completion_shared

    use_d4_shells()
    complete_var = "_{}_COMPLETE".format(prog_name.replace("-", "_").upper())
    return _completion_shared.get_completion_script(
        prog_name=prog_name, complete_var=complete_var, shell=shell
    )
