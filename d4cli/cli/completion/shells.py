"""The bash, zsh and fish completion classes and scripts, registered over Typer's (docs/cli.md),
and the completions of a command line for ``d4cli play``.

The one module of d4cli that reaches into Typer's private modules (``typer._click``,
``typer._completion_classes``, ``typer._completion_shared``), always inside a function, so
that nothing else needs them. No public route exists: Typer 0.26-0.28 vendor Click as
``typer._click`` and offer no public hook to register a shell class, to set the script that
``--show-completion`` and ``--install-completion`` print, or to ask a command for the
completions of a line. The ``click`` package (``click.shell_completion``) is not Typer's Click
here, nor a dependency of d4cli: its classes do not recognise Typer's commands. Re-check these
imports whenever the Typer pin in pyproject.toml moves.
"""

from __future__ import annotations

import os
from typing import Any

from typer import _completion_shared
from typer._click.shell_completion import ShellComplete, add_completion_class
from typer._completion_classes import BashComplete, FishComplete, ZshComplete, completion_init

from d4cli.api.inputs import fold_name
from d4cli.cli.completion import typed_words
from d4cli.cli.completion.words import DEFAULT_WORDBREAKS, bash_quote, line_to_cursor, split_line

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


def _option_head(value: str) -> str:
    """``--dc=`` for ``--dc=ha``: the part Click splits off before completing the value."""
    if value.startswith("-") and "=" in value:
        return value.partition("=")[0] + "="
    return ""


def _is_path_item(item: Any) -> str:
    kind = getattr(item, "type", "plain")
    return kind if kind in ("file", "dir") else ""


def _bash_replies(items: Any, head: str, typed: Any) -> str:
    """bash's reply lines: each completion quoted as the part readline replaces; none but a
    file-name fallback ("") when the completion is a path (complete -o default)."""
    replies: list[str] = []
    for item in items:
        if _is_path_item(item):
            return ""
        full = head + str(item.value)
        kept = full[: len(typed.kept)]
        if fold_name(kept) != fold_name(typed.kept) and kept != typed.kept:
            continue
        reply = bash_quote(full[len(typed.kept) :], typed.quote)
        if reply not in replies:
            replies.append(reply)
    return "\n".join(replies)


def _shell_classes() -> list[Any]:
    # Private: Typer's shell classes (no public equivalent; see the module).

    class D4BashComplete(BashComplete):
        """bash: reads COMP_LINE/COMP_POINT; replies with the quoted text readline replaces."""

        source_template = BASH_SCRIPT

        def get_completion_args(self) -> tuple[list[str], str]:
            line = line_to_cursor(
                os.environb.get(b"COMP_LINE", b""), os.environ.get("COMP_POINT", "")
            )
            words, self.typed = split_line(
                line, os.environ.get("COMP_WORDBREAKS", DEFAULT_WORDBREAKS)
            )
            typed_words[:] = words[1:]
            return words[1:], self.typed.value

        def complete(self) -> str:
            args, incomplete = self.get_completion_args()
            items = self.get_completions(args, incomplete)
            return _bash_replies(items, _option_head(incomplete), self.typed)

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
        typed_words[:] = args
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
    # Private: Typer's registry of shell classes and its table of scripts (see the module).

    completion_init()
    for cls in _shell_classes():
        add_completion_class(cls, cls.name)
        # Typer's --install-completion/--show-completion read this table.
        _completion_shared._completion_scripts[cls.name] = cls.source_template
    _registered = True


def completion_script(shell: str, prog_name: str = "d4cli") -> str:
    """The completion script for *shell* (bash, zsh, fish), as ``completions/`` holds it."""

    use_d4_shells()
    complete_var = "_{}_COMPLETE".format(prog_name.replace("-", "_").upper())
    return _completion_shared.get_completion_script(
        prog_name=prog_name, complete_var=complete_var, shell=shell
    )


def line_completions(root: Any, words: list[str], incomplete: str) -> list[Any]:
    """Click's completion items for *incomplete* after *words* (the words after ``d4cli``),
    asked of the root command *root* as the shell classes ask it: each item has ``value``,
    ``type`` (``plain``, ``file``, ``dir``) and ``help``.

    Raises:
        Whatever a parameter's completer or Click's parsing of *words* raises.
    """
    # Private: Click's completion machinery, vendored by Typer (see the module).

    class SessionComplete(ShellComplete):
        """Click's completion class with the shell-facing parts (never used here) filled in."""

        name = "d4cli-play"
        source_template = ""

        def source_vars(self) -> dict[str, Any]:
            return {}

        def get_completion_args(self) -> tuple[list[str], str]:
            return [], ""

        def format_completion(self, item: Any) -> str:
            return str(item.value)

    return list(
        SessionComplete(root, {}, "d4cli", "_D4CLI_COMPLETE").get_completions(words, incomplete)
    )
