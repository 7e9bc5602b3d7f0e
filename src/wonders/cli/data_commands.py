"""Commands that read data: ``validate``, ``schema``, ``graph``, ``cards``, ``games``,
``effects``, ``diff``.

Every command that reads data takes the same choice: ``--game NAME`` for a
shipped game (or ``--game PATH`` for a rule-set file or folder, see
:mod:`wonders.engine.sources`), and/or ``PATH…`` for files and folders (an
expansion is checked together with the shipped game its cards name).
"""

from __future__ import annotations

import json
import shutil
import sys
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from wonders.cli.options import (
    GAME_HELP,
    check_game_name,
    check_paths,
    fail,
    open_output,
    write_output,
)
from wonders.cli.render import print_json, print_text, summary
from wonders.dsl import describe
from wonders.dsl.chains import to_dot, to_text
from wonders.dsl.errors import Report
from wonders.dsl.loader import LoadResult, load, load_each, shipped_expansions, shipped_games
from wonders.dsl.mechanisms import capabilities
from wonders.dsl.model import Card, Game, Token, Wonder
from wonders.dsl.schema import ALL_SCHEMAS, KINDS, schema

PATHS_HELP = "Card, wonder, token or rule files, or folders of them."


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


class GraphFormat(str, Enum):
    text = "text"
    dot = "dot"
    png = "png"


class SchemaKind(str, Enum):
    cards = "cards"
    wonders = "wonders"
    rules = "rules"
    tokens = "tokens"
    forum = "forum"      # a dice forum (offer: dice)
    sheets = "sheets"    # player sheets (offer: dice)
    components = "components"   # card kinds, decks, Wonders in pieces (offer: decks)
    scenario = "scenario"


def _load(paths: Optional[list[Path]], game: Optional[str]) -> LoadResult:
    """Load what the user named, turning a bad choice of input into a usage error."""
    if not paths and not game:
        raise typer.BadParameter("give --game NAME or one or more PATHs", param_hint="PATH…")
    source = check_game_name(game) if game is not None else None
    _check_paths(paths or [])
    if source is None:
        return load(paths or [], None)
    return load([*source.paths, *(paths or [])], source.name)


def _check_paths(paths: list[Path]) -> None:
    check_paths(paths)


def _require_game(result: LoadResult) -> Game:
    if result.game is None:
        print_text(result.report.sorted(), sys.stderr)
        sys.stderr.write(summary(len(result.files), result.report.sorted()) + "\n")
        raise typer.Exit(1)
    if result.report.warnings:
        print_text(result.report.warnings, sys.stderr)
    return result.game


def validate(
    paths: Optional[list[Path]] = typer.Argument(None, help=PATHS_HELP, show_default=False),
    game: Optional[str] = typer.Option(None, "--game", "-g", help=GAME_HELP),
    output: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f",
                                        help="text for people, json for tools."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the diagnostics."),
) -> None:
    """Check card sets, wonders and rule sets: every error, located as file:line:col.

    Exit 0 when valid, 1 when there are errors, 2 on a usage error.
    """
    if game is None and paths:  # paths may hold several games (cards/): check each
        _check_paths(paths)
        results = load_each(paths)
    else:
        results = [_load(paths, game)]
    report = Report()
    files: list[str] = []
    for result in results:
        report.extend(result.report.diagnostics)
        files += result.files
    diagnostics = report.sorted()
    if output is OutputFormat.json:
        print_json(files, diagnostics, sys.stdout)
    else:
        print_text(diagnostics, sys.stdout)
        if not quiet:
            sys.stdout.write(summary(len(files), diagnostics) + "\n")
    raise typer.Exit(0 if report.ok else 1)


def schema_command(
    kind: Optional[SchemaKind] = typer.Argument(
        None, help="Which file kind: cards, wonders, rules, tokens, forum, sheets, "
                   "components or scenario.", show_default=False),
    write: Optional[Path] = typer.Option(
        None, "--write", help="Write every kind's schema into this folder as "
                              "KIND.schema.json instead of printing one."),
) -> None:
    """Print the JSON Schema (draft-07) of a file kind, or write them all, for editors.

    Point yaml-language-server at it with a first line such as
    '# yaml-language-server: $schema=cards.schema.json'.
    """
    if write is not None:
        try:
            write.mkdir(parents=True, exist_ok=True)
            for each in SchemaKind:
                target = write / f"{each.value}.schema.json"
                target.write_text(json.dumps(schema(each.value), indent=2) + "\n",
                                  encoding="utf-8")
                typer.echo(str(target))
        except OSError as exc:
            typer.echo(f"wonders schema: cannot write into {write}: {exc.strerror or exc}",
                       err=True)
            raise typer.Exit(2) from None
        return
    if kind is None:
        typer.echo("wonders schema: name a file kind (cards, wonders, rules, tokens, forum, "
                   "sheets, components, scenario) or give --write DIR", err=True)
        raise typer.Exit(2)
    _print_json(schema(kind.value))


def graph(
    paths: Optional[list[Path]] = typer.Argument(None, help=PATHS_HELP, show_default=False),
    game: Optional[str] = typer.Option(None, "--game", "-g", help=GAME_HELP),
    output_format: GraphFormat = typer.Option(GraphFormat.text, "--format", "-f",
                                              help="text (chains, one per line), dot, or png "
                                                   "(png needs Graphviz's 'dot' program)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write to this file (needed for png)."),
) -> None:
    """Show the chain graph (free builds): as text, as Graphviz DOT, or as a PNG.

    Cards a loaded set removes ('remove:') are left out: they are not in the game.
    The PNG needs Graphviz's 'dot' program (e.g. apt-get install graphviz).
    """
    result = _load(paths, game)
    loaded = _require_game(result)
    assert result.graph is not None
    chains = result.graph.subgraph(n for n in result.graph if n not in loaded.removed).copy()
    if output_format is GraphFormat.text:
        text = "\n".join(to_text(chains)) + "\n"
    elif output_format is GraphFormat.dot:
        text = to_dot(chains)
    else:
        if output is None:
            raise typer.BadParameter("a PNG needs --output FILE", param_hint="--output")
        if shutil.which("dot") is None:
            sys.stderr.write("wonders: PNG output needs Graphviz's 'dot' program, which is not "
                             "installed or not on the PATH (install Graphviz: apt-get install "
                             "graphviz, brew install graphviz, or graphviz.org/download); "
                             "--format text and --format dot work without it\n")
            raise typer.Exit(1)
        import pydot

        open_output(output, "the graph").close()  # a clean exit 1 when it cannot be written
        graphs = pydot.graph_from_dot_data(to_dot(chains)) or []
        for dot_graph in graphs[:1]:
            try:
                dot_graph.write(str(output), format="png")
            except OSError as exc:
                fail(f"cannot write the graph to {output}: {exc.strerror or exc}")
        sys.stdout.write(f"wrote {output}\n")
        return
    if output is not None:
        write_output(output, lambda handle: handle.write(text), "the graph")
        sys.stdout.write(f"wrote {output}\n")
    else:
        sys.stdout.write(text)


def card_record(card: Card, game: Game) -> dict[str, Any]:
    """Everything ``wonders cards --json`` says about one card."""
    counts = game.rules.player_counts
    return {
        "name": card.name,
        "set": card.set,
        "age": card.age,
        "colour": card.colour,
        "copies": None if card.drawn else {str(p): card.copies(p) for p in counts},
        "drawn": card.drawn,
        "removed": card.name in game.removed,
        "cost": {"coins": card.cost.coins, "resources": dict(card.cost.resources)},
        "cost_text": describe.cost(card.cost),
        "free_if_built": list(card.free_if_built),
        "makes_free": list(card.makes_free),
        "effect": card.effects.text,
        "description": describe.effects(card.effects),
    }


def token_record(token: Token) -> dict[str, Any]:
    """Everything ``wonders cards --tokens --json`` says about one token."""
    return {"name": token.name, "kind": token.kind, "set": token.set,
            "effect": token.effects.text, "description": describe.effects(token.effects)}


def wonder_record(wonder: Wonder) -> dict[str, Any]:
    """Everything ``wonders cards --wonders --json`` says about one wonder: per side, what
    it gives from the start and each stage's cost and effect."""
    return {"name": wonder.name, "set": wonder.set, "sides": [
        {"side": side.side, "start": side.start.text,
         "start_description": describe.effects(side.start),
         "stages": [{"cost": {"coins": stage.cost.coins,
                              "resources": dict(stage.cost.resources)},
                     "cost_text": describe.cost(stage.cost), "effect": stage.effects.text,
                     "description": describe.effects(stage.effects)}
                    for stage in side.stages]}
        for side in wonder.sides.values()]}


def _print_json(value: object) -> None:
    """JSON for the listing commands: indented, names as written (not \\u-escaped)."""
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _print_tokens(loaded: Game, tokens: list[Token], as_json: bool) -> None:
    if as_json:
        _print_json([token_record(t) for t in tokens])
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{loaded.rules.title}: {len(tokens)} "
                  f"token{'s' if len(tokens) != 1 else ''}")
    for header in ("Token", "Kind", "Effect"):
        table.add_column(header, overflow="fold")
    for token in tokens:
        table.add_row(token.name, token.kind,
                      f"{token.effects.text}\n[dim]{describe.effects(token.effects)}[/dim]")
    Console().print(table)


def _print_wonders(loaded: Game, wonders: list[Wonder], as_json: bool) -> None:
    if as_json:
        _print_json([wonder_record(w) for w in wonders])
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{loaded.rules.title}: {len(wonders)} "
                  f"wonder{'s' if len(wonders) != 1 else ''}")
    sided = any(len(w.sides) > 1 or any(len(s.stages) > 1 for s in w.sides.values())
                for w in wonders)
    for header in ("Wonder", *(("Side", "Stage") if sided else ()), "Cost", "Effect"):
        table.add_column(header, overflow="fold")
    for wonder in wonders:
        for side in wonder.sides.values():
            if sided and side.start.clauses:
                table.add_row(wonder.name, side.side, "start", "",
                              f"{side.start.text}\n[dim]{describe.effects(side.start)}[/dim]")
            for number, stage in enumerate(side.stages, 1):
                effect = f"{stage.effects.text}\n[dim]{describe.effects(stage.effects)}[/dim]"
                where = (side.side, str(number)) if sided else ()
                table.add_row(wonder.name, *where, describe.cost(stage.cost), effect)
    Console().print(table)


def cards(
    paths: Optional[list[Path]] = typer.Argument(None, help=PATHS_HELP, show_default=False),
    game: Optional[str] = typer.Option(None, "--game", "-g", help=GAME_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON for tools."),
    age: Optional[int] = typer.Option(None, "--age", help="Only cards of this age."),
    colour: Optional[str] = typer.Option(None, "--colour", "--color", help="Only this colour."),
    search: Optional[str] = typer.Option(None, "--search", "-s",
                                         help="Only cards whose name or effect contains this."),
    card_set: Optional[str] = typer.Option(None, "--set", help="Only cards of this set."),
    show_removed: bool = typer.Option(False, "--removed",
                                      help="Also list cards a loaded set removes from the deck."),
    show_tokens: bool = typer.Option(False, "--tokens", help="List the tokens (e.g. Duel's "
                                     "progress tokens) instead of the cards."),
    show_wonders: bool = typer.Option(False, "--wonders", help="List the wonders (sides, "
                                      "stages, costs, effects) instead of the cards."),
) -> None:
    """List the cards of a set: age, colour, copies per player count, cost, chains, effect.

    --tokens lists the tokens and --wonders the wonders instead (--search and --set filter
    them too).
    """
    if show_tokens and show_wonders:
        raise typer.BadParameter("list either --tokens or --wonders", param_hint="--tokens")
    result = _load(paths, game)
    loaded = _require_game(result)
    needle = search.lower() if search is not None else None
    if show_tokens:
        _print_tokens(loaded, [t for t in loaded.tokens
                               if (card_set is None or t.set == card_set)
                               and (needle is None or needle in t.name.lower()
                                    or needle in t.effects.text.lower())], as_json)
        return
    if loaded.components is not None:   # a decks game: its card kinds, decks, Wonders, tokens
        from wonders.cli.components_listing import print_components

        print_components(loaded, as_json)
        return
    if loaded.dice is not None and not show_wonders:   # a dice-forum game: its sheets
        from wonders.cli.dice_listing import print_dice

        print_dice(loaded, as_json)
        return
    if show_wonders:
        _print_wonders(loaded, [w for w in loaded.wonders
                                if (card_set is None or w.set == card_set)
                                and (needle is None or needle in w.name.lower())], as_json)
        return
    selected = [c for c in loaded.cards
                if (age is None or c.age == age) and (colour is None or c.colour == colour)
                and (card_set is None or c.set == card_set)
                and (show_removed or c.name not in loaded.removed)
                and (search is None or search.lower() in c.name.lower()
                     or search.lower() in c.effects.text.lower())]
    if as_json:
        _print_json([card_record(c, loaded) for c in selected])
        return
    from rich.console import Console
    from rich.table import Table

    counts = list(loaded.rules.player_counts)
    table = Table(title=f"{loaded.rules.title}: {len(selected)} cards", show_lines=False)
    copies_header = "Copies" if len(counts) == 1 else "Copies " + "/".join(str(p) for p in counts)
    for header in ("Card", "Age", "Colour", copies_header,
                   "Cost", "Chains", "Effect"):
        table.add_column(header, overflow="fold")
    for card in selected:
        copies = "drawn" if card.drawn else "/".join(str(card.copies(p)) for p in counts)
        chains = ", ".join([f"← {n}" for n in card.free_if_built] +
                           [f"→ {n}" for n in card.makes_free])
        table.add_row(card.name, str(card.age), card.colour, copies,
                      describe.cost(card.cost), chains,
                      f"{card.effects.text}\n[dim]{describe.effects(card.effects)}[/dim]")
    Console().print(table)
    extras = [f"{len(loaded.tokens)} tokens: --tokens"] if loaded.tokens else []
    extras.append(f"{len(loaded.wonders)} wonders: --wonders")
    sys.stdout.write(f"also {'; '.join(extras)}\n")


def games() -> None:
    """List the shipped games and expansions."""
    rows = [("game", name, path) for name, path in shipped_games().items()]
    rows += [("expansion", name, path) for name, path in shipped_expansions().items()]
    width = max(len(name) for _, name, _ in rows)  # names line up however long
    for kind, name, path in rows:
        sys.stdout.write(f"{kind:<10} {name:<{width}} {path}\n")


def effects(game: Optional[str] = typer.Option(
        None, "--game", "-g", help=GAME_HELP + " Default: every shipped game.",
        show_default=False)) -> None:
    """Print which effects, abilities and mechanisms each game loop and game runs (Markdown
    tables made from the catalogue 'wonders validate' checks against)."""
    from wonders.dsl.effects_table import effects_table

    if game is None:
        sys.stdout.write(effects_table())
        return
    source = check_game_name(game)
    loaded = _require_game(source.load([]))
    offer = loaded.rules.model.offer.mechanism
    loops = [offer] if capabilities(offer) is not None else []
    sys.stdout.write(effects_table({source.name or loaded.rules.name: loaded}, loops))


def diff(
    first: str = typer.Argument(..., metavar="A",
                                help="The rule set compared against: " + GAME_HELP),
    second: str = typer.Argument(..., metavar="B", help="The rule set whose changes are shown."),
    json_output: bool = typer.Option(False, "--json", help="Print the changes as JSON."),
) -> None:
    """Show what rule set B changes against A: parameters, cards, wonder boards, tokens
    (e.g. 'wonders diff base examples/house-rules/rich-start.yaml')."""
    from wonders.dsl.diff import diff as compare
    from wonders.engine.sources import SourceError, resolve

    loaded: list[Game] = []
    for name, hint in ((first, "A"), (second, "B")):
        try:
            source = resolve(name)
        except SourceError as exc:
            raise typer.BadParameter(str(exc), param_hint=hint) from None
        loaded.append(_require_game(source.load([])))
    changes = compare(loaded[0], loaded[1])
    if json_output:
        json.dump({"a": first, "b": second, "changes": [c.to_json() for c in changes.changes]},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    sys.stdout.write(changes.render(first, second))


def register(app: typer.Typer) -> None:
    app.command()(diff)
    app.command()(validate)
    app.command("schema")(schema_command)
    app.command()(graph)
    app.command()(cards)
    app.command()(games)
    app.command()(effects)


__all__ = ["register", "KINDS", "ALL_SCHEMAS"]
