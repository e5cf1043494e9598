"""Commands imported and built only when they are used, for start-up time (the tool runs on every Tab).

The command list is a plain mapping, ``name -> "module:attribute"`` (`d4cli.cli.app.COMMANDS`).
The attribute is either a command function or a Typer app of sub-commands (a group such
as ``roll``). `LazyGroup` is a Click group (Typer's `TyperGroup`) whose `list_commands`
reads that mapping and whose `get_command` imports the one module a run needs and builds
the one command through Typer's public API (``typer.Typer().command(...)`` and
``typer.main.get_command``); a group's own sub-commands are built the same way, one by one.
So ``d4cli roll pool`` never pays for the encounter commands or ``roll check``.

The root's list of commands (``--help``, bare ``d4cli``, a Tab on a command's name) is read
from the same mapping, each line of which carries the command's panel and one-line summary
(`Listed`): listing builds no command and imports no command module.
Adding a command is one line in that mapping.
"""

import functools
import importlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NamedTuple

import typer
from typer.core import TyperCommand, TyperGroup

# A Click command or context as Typer makes them. Typer's Click is private
# (``typer._click``, vendored since Typer 0.26), so its types are not named here.
Command = Any
Context = Any

# How to build one command: returns the Click command.
Builder = Callable[[], Command]


# Set in a context's `meta` while its group lists its commands (help, Tab on a command name).
_LISTING = "d4cli.listing"


@contextmanager
def _listing(ctx: Context) -> Iterator[None]:
    """While the group of *ctx* lists its commands: `LazyGroup.get_command` answers from
    `LazyGroup.summaries` without building."""
    before = ctx.meta.get(_LISTING)
    ctx.meta[_LISTING] = True
    try:
        yield
    finally:
        ctx.meta[_LISTING] = before


def _need_command(group: TyperGroup, ctx: Context, args: list[str]) -> None:
    """A sub-group run without a command is a usage error: a short plain message, exit 2.

    Bare ``d4cli`` (the root, nothing typed at all) prints the help and exits 0.

    Click's ``no_args_is_help`` would print the whole help (boxes) on stdout and
    still exit 2; scripts rely on an empty stdout whenever the exit code is 2.
    """
    if not args and group.no_args_is_help and not ctx.resilient_parsing:
        if ctx.parent is None:
            # Bare `d4cli`: nothing was mistyped, so the help, exit 0.
            typer.echo(ctx.get_help())
            raise typer.Exit(0)
        names = ", ".join(group.list_commands(ctx))
        raise typer.BadParameter(f"missing; one of {names}", ctx=ctx, param_hint="COMMAND")


class LazyGroup(TyperGroup):
    """A Click group whose commands are built on first use.

    `builders` maps each command name, in help order, to a function that builds it;
    a subclass may set it as a class attribute (the root, through `from_specs`), or
    `group_from_app` sets it on one instance.
    """

    builders: Mapping[str, Builder] = {}
    # The one-line summary of each command, as the list of commands shows it (the root's,
    # from `Listed`); a group without them builds its commands to list them.
    summaries: Mapping[str, str] = {}
    # The panel of `--help` each command is listed in (the root's, from `Listed`).
    panels: Mapping[str, str] = {}
    # What an unknown command name might have meant (``roll d6``): a hint, or "" for none.
    unknown_hint: Callable[[str], str] | None = None
    # The command a first word that names none belongs to (``roll 1d20+5`` is ``roll dice
    # 1d20+5``), or None: then the word is an unknown command.
    implied: Callable[[str], str | None] | None = None

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        if args and self.implied is not None and args[0] not in self.list_commands(ctx):
            command = self.implied(args[0])
            if command is not None:
                args = [command, *args]
        try:
            return super().resolve_command(ctx, args)
        except (
            typer.TyperException
        ) as error:  # Click's UsageError; TyperException is its public base
            hint = self.unknown_hint(args[0]) if self.unknown_hint is not None and args else ""
            if hint:
                error.message = f"{error.message.rstrip('.')}; {hint}"
            raise

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        _need_command(self, ctx, args)
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: Context) -> list[str]:
        names = list(self.builders)
        return names + [name for name in super().list_commands(ctx) if name not in self.builders]

    def format_help(self, ctx: Context, formatter: Any) -> None:
        with _listing(ctx):
            super().format_help(ctx, formatter)

    def shell_complete(self, ctx: Context, incomplete: str) -> list[Any]:
        with _listing(ctx):
            return super().shell_complete(ctx, incomplete)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        command = super().get_command(ctx, cmd_name)
        listing = ctx is not None and ctx.meta.get(_LISTING)
        if command is None and listing and cmd_name in self.summaries:
            # Only its name and summary are read: a command that holds nothing else.
            return TyperCommand(
                name=cmd_name,
                help=self.summaries[cmd_name],
                rich_help_panel=self.panels.get(cmd_name),
            )
        if command is None and cmd_name in self.builders:
            built = self.builders[cmd_name]()
            # Listed later (``help`` in `play`), it stays in its panel.
            built.rich_help_panel = self.panels.get(cmd_name)
            self.add_command(built, cmd_name)
            return built
        elif command is None:
            # An unknown name: build everything so the "did you mean" hint sees all names.
            for name in self.builders:
                self.get_command(ctx, name)
        return command


class Listed(NamedTuple):
    """One command of a list: where it is defined, and what the list says of it.

    Attributes:
        target: ``"module:function"`` (one command) or ``"module:app"`` (a Typer app: a
            group of sub-commands).
        panel: the panel of ``--help`` it is listed in.
        summary: the first line of its help, exactly, one sentence that fits one line of
            ``--help`` at 80 columns (``--help`` lists it, a Tab on a command name shows it,
            ``play``'s ``help`` lists the commands in this order; a test compares the two).
        settings: keyword arguments of ``typer.Typer.command`` (``context_settings``), or,
            for a group, ``unknown_hint`` and ``implied`` (`build`).
    """

    target: str
    panel: str
    summary: str
    settings: Mapping[str, Any] | None = None


# A command's definition: ``"module:attribute"``, or a `Listed` line.
Spec = str | Listed


def from_specs(specs: Mapping[str, Spec]) -> dict[str, Builder]:
    """Builders for ``name -> spec`` (see the module docstring), in the same order."""
    return {name: functools.partial(build, name, spec) for name, spec in specs.items()}


def summaries_of(specs: Mapping[str, Listed]) -> dict[str, str]:
    """The summary of each command of *specs*, in the same order (`LazyGroup.summaries`)."""
    return {name: spec.summary for name, spec in specs.items()}


def panels_of(specs: Mapping[str, Listed]) -> dict[str, str]:
    """The panel of each command of *specs*, in the same order (`LazyGroup.panels`)."""
    return {name: spec.panel for name, spec in specs.items()}


def build(name: str, spec: Spec) -> Command:
    """Import *spec*'s ``module:attribute`` and build the Click command *name* from it.

    A command function becomes one command, with the spec's Typer settings (such as
    ``context_settings``) if it has any. A Typer app becomes a `LazyGroup` named *name*;
    its settings ``unknown_hint`` and ``implied`` name the module's functions (``"function"``)
    that hint at what an unknown sub-command meant (`LazyGroup.unknown_hint`) and say the
    sub-command a first word belongs to (`LazyGroup.implied`).
    """
    target_spec, settings = (
        (spec, {}) if isinstance(spec, str) else (spec.target, spec.settings or {})
    )
    module_name, _, attribute = target_spec.partition(":")
    module = importlib.import_module(module_name)
    target = getattr(module, attribute)
    if isinstance(target, typer.Typer):
        group = group_from_app(name, target)
        for setting in ("unknown_hint", "implied"):
            if setting in settings:
                setattr(group, setting, getattr(module, settings[setting]))
        return group
    return _single(name, target, settings)


def group_from_app(name: str, app: typer.Typer) -> Command:
    """A `LazyGroup` with *app*'s help and settings whose commands are built one by one.

    Only what *app* declares is read (its info and its registered commands and callback);
    nothing of it is changed.
    """
    shell = typer.Typer(
        name=name,
        cls=LazyGroup,
        help=app.info.help,
        no_args_is_help=app.info.no_args_is_help,
        context_settings=app.info.context_settings,
        add_completion=False,
    )
    registered = app.registered_callback
    if registered is not None and registered.callback is not None:
        # ``bestiary`` lists when run alone: its callback runs without a sub-command.
        alone = bool(registered.invoke_without_command)
        shell.callback(invoke_without_command=alone)(registered.callback)
    else:
        # A group needs a callback to be built as a group: one that does nothing.
        shell.callback()(_no_options)
    group = typer.main.get_command(shell)
    infos = {info.name or _function_name(info.callback): info for info in app.registered_commands}
    group.builders = {  # type: ignore[attr-defined]
        key: functools.partial(_single_from_info, key, info) for key, info in infos.items()
    }
    return group


def _no_options() -> None:
    # No docstring: the group's help is its app's ``help``.
    pass


def _function_name(callback: Callable[..., Any] | None) -> str:
    return callback.__name__.lower().replace("_", "-") if callback is not None else ""


def _single_from_info(name: str, info: Any) -> Command:
    settings = {key: value for key, value in vars(info).items() if key not in ("name", "callback")}
    return _single(name, info.callback, settings)


def _single(name: str, function: Callable[..., Any], settings: Mapping[str, Any]) -> Command:
    """One Click command from *function*, built by Typer."""
    holder = typer.Typer(add_completion=False)
    holder.command(name, **settings)(function)
    return typer.main.get_command(holder)
