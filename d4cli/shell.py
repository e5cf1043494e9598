"""The one place where errors become exit codes and short plain messages (shared/CLI.md).

`D4Group` is the root command class of the Typer app. Its `main` runs the
command without Click's standalone handling, then maps what escaped: usage
errors and `InputError` to exit 2, `RefusedError` to 3, anything unexpected
to 1 (one line; a traceback only with ``D4CLI_DEBUG=1``). It applies both to
the console script and to ``typer.testing.CliRunner``.
"""

from __future__ import annotations

import os
import sys
from typing import Any, ClassVar

import typer
from typer.core import TyperGroup

from d4cli.errors import EXIT_INPUT, EXIT_INTERNAL, D4Error, RefusedError, escape_control


def say_error(message: str) -> None:
    """Write one plain error line to stderr."""
    sys.stderr.write(f"d4cli: error: {escape_control(message)}\n")
    sys.stderr.flush()


def _usage_error(error: typer.TyperException) -> int:
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        sys.stderr.write(ctx.get_usage() + "\n")
        sys.stderr.write(f"Try '{ctx.command_path} --help' for help.\n")
    say_error(error.format_message())
    code = getattr(error, "exit_code", EXIT_INPUT)
    return EXIT_INPUT if code == 1 else code


def _need_command(group: Any, ctx: Any, args: list[str]) -> None:
    """A group run without a command is a usage error: a short plain message, exit 2.

    Click's ``no_args_is_help`` would print the whole help (boxes) on stdout and
    still exit 2; scripts rely on an empty stdout whenever the exit code is 2.
    """
    if not args and group.no_args_is_help and not ctx.resilient_parsing:
        names = ", ".join(group.list_commands(ctx))
        raise typer.BadParameter(f"missing; one of {names}", ctx=ctx, param_hint="COMMAND")


def _prepare_streams() -> None:
    # A closed stream (`d4cli ... >&-`) is None in Python: write to nowhere instead.
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    # A stream that cannot encode a name (PYTHONIOENCODING=ascii) must not crash.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "") == "strict":
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


class ReaderGone(Exception):
    """stdout was closed by its reader (``d4cli ... | head -1``): stop quietly, exit 0."""


class D4Group(TyperGroup):
    """Root command: runs a command and turns whatever escapes into an exit code.

    It also loads commands lazily: `command_modules` maps a top-level command
    name to the module that defines it (with ``register(app)`` or a Typer
    ``app``); that module is imported and only that command is built when the
    command is used, so ``d4cli roll pool`` never pays for the encounter
    commands, Rich or the TOML writer.
    """

    command_modules: ClassVar[dict[str, str]] = {}

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _need_command(self, ctx, args)
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)
        return names + [name for name in self.command_modules if name not in names]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in self.command_modules:
            command = load_command(cmd_name, self.command_modules[cmd_name])
            if command is not None:
                self.commands[cmd_name] = command
        elif command is None:
            # An unknown name: load everything so the "did you mean" hint sees all names.
            for name in self.list_commands(ctx):
                if name != cmd_name:
                    self.get_command(ctx, name)
        return command

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as error:
            # Typer's own handler would turn a closed pipe into exit 1.
            raise ReaderGone() from error

    def _main_shell_completion(self, ctx_args: Any, prog_name: str, complete_var: str | None) -> None:
        if complete_var is None:
            complete_var = f"_{prog_name}_COMPLETE".replace("-", "_").upper()
        if os.environ.get(complete_var):
            # Our shell classes quote names for the shell (d4cli.completion).
            from d4cli.completion import use_d4_shells

            use_d4_shells()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        _prepare_streams()
        if any(str(arg).startswith(("--show-completion", "--install-completion")) for arg in args or sys.argv[1:]):
            from d4cli.completion import use_d4_shells

            use_d4_shells()
        try:
            code = super().main(
                args=args,
                prog_name=prog_name or "d4cli",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            code = code if isinstance(code, int) else 0
        except typer.TyperException as error:
            code = _usage_error(error)
        except RefusedError as error:
            # A refusal is an answer of the rules, not an error (exit 3).
            sys.stderr.write(f"d4cli: {escape_control(str(error))}\n")
            code = error.exit_code
        except D4Error as error:
            say_error(str(error))
            code = error.exit_code
        except typer.Abort:
            code = 130
        except (BrokenPipeError, ReaderGone):
            # A reader such as `head` went away: not an error of ours.
            _silence_stdout()
            code = 0
        except OSError as error:
            # The output could not be written (a full disk, a closed terminal):
            # not a bug, but the command may have done its work already.
            say_error(
                f"output: {error.strerror or error}; any change was saved ('d4cli log' shows it)"
            )
            code = EXIT_INTERNAL
        except Exception as error:  # noqa: BLE001 - the last resort of the shell
            if os.environ.get("D4CLI_DEBUG") == "1":
                raise
            say_error(f"internal error: {type(error).__name__}: {error}")
            code = EXIT_INTERNAL
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _silence_stdout()
        except OSError as error:
            say_error(f"output: {error.strerror or error}; any change was saved ('d4cli log' shows it)")
            code = EXIT_INTERNAL
        sys.exit(code)


class LazyGroup(TyperGroup):
    """A command group (such as ``roll``) whose commands are built when first used."""

    pending: dict[str, Any]

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _need_command(self, ctx, args)
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)
        return names + [name for name in getattr(self, "pending", {}) if name not in names]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        pending = getattr(self, "pending", {})
        if cmd_name not in self.commands and cmd_name in pending:
            self.commands[cmd_name] = _build_single(pending[cmd_name])
        elif cmd_name not in self.commands:
            for name in list(pending):
                self.get_command(ctx, name)
        return super().get_command(ctx, cmd_name)


def _build_single(info: Any) -> Any:
    import functools

    from typer.main import get_command

    holder = typer.Typer(add_completion=False)
    holder.registered_commands = [info]
    command = get_command(holder)
    callback = command.callback
    if callback is not None:

        @functools.wraps(callback)
        def run(*args: Any, **kwargs: Any) -> Any:
            start_collecting()
            return callback(*args, **kwargs)

        command.callback = run
    return command


def start_collecting() -> None:
    """Turn the garbage collector back on when `d4cli.main` paused it for start-up.

    What start-up loaded is frozen first: later collections never scan it again.
    (Under CliRunner the collector was never paused, and nothing changes.)
    """
    import gc

    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _command_name(info: Any) -> str | None:
    if info.name:
        return str(info.name)
    callback = getattr(info, "callback", None)
    return callback.__name__.lower().replace("_", "-") if callback is not None else None


def load_command(name: str, module_name: str) -> Any:
    """Import *module_name* and build the click command *name* it defines, nothing else.

    A command group added as a plain Typer app (``roll``) becomes a `LazyGroup`:
    its own commands are built only when used too.
    """
    import importlib

    from typer.main import get_command
    from typer.models import DefaultPlaceholder

    module = importlib.import_module(module_name)
    holder = typer.Typer(add_completion=False)
    register = getattr(module, "register", None)
    if register is not None:
        register(holder)
    else:
        holder.add_typer(module.app, name=name)
    wanted = [info for info in holder.registered_commands if _command_name(info) == name]
    groups = [info for info in holder.registered_groups if info.name == name]
    if len(wanted) == 1 and not groups:
        return _build_single(wanted[0])
    if len(groups) == 1 and not wanted:
        group_info = groups[0]
        sub = group_info.typer_instance
        lazy = (
            isinstance(group_info.cls, DefaultPlaceholder)
            and isinstance(sub.info.cls, DefaultPlaceholder)
            and not sub.registered_groups
        )
        if lazy:
            # Build the group without its commands; they are built on first use.
            holder.registered_commands = []
            holder.registered_groups = [group_info]
            group_info.cls = LazyGroup
            infos = list(sub.registered_commands)
            sub.registered_commands = []
            try:
                built = get_command(holder)
            finally:
                sub.registered_commands = infos
            group = built.commands[name]  # type: ignore[attr-defined]
            group.pending = {_command_name(info): info for info in infos}
            return group
    built = get_command(holder)
    if isinstance(built, TyperGroup):
        return built.commands.get(name)
    return built


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
