"""Commands built only when they are used, for start-up time (the tool runs on every Tab).

`LazyRootGroup` imports the module of the one top-level command a run uses;
`LazyGroup` builds the one sub-command (``roll pool``) it needs.
"""

from __future__ import annotations

from typing import Any, ClassVar

import typer
from typer.core import TyperGroup


def _need_command(group: Any, ctx: Any, args: list[str]) -> None:
    """A group run without a command is a usage error: a short plain message, exit 2.

    Click's ``no_args_is_help`` would print the whole help (boxes) on stdout and
    still exit 2; scripts rely on an empty stdout whenever the exit code is 2.
    """
    if not args and group.no_args_is_help and not ctx.resilient_parsing:
        names = ", ".join(group.list_commands(ctx))
        raise typer.BadParameter(f"missing; one of {names}", ctx=ctx, param_hint="COMMAND")


class LazyRootGroup(TyperGroup):
    """A root group that loads its commands lazily: `command_modules` maps a top-level command
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
