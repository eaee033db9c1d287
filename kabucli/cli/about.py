"""The commands about a game that play no match: ``rules`` (the games and their rules),
``deal`` (a seeded game's first deal), ``solve`` (the best ways to play a hand) and
``completion`` (the shell completion scripts)."""

from __future__ import annotations

from typing import Annotated

import typer

from kabucli.cli.common import (
    GameArg,
    JsonOpt,
    PlayersOpt,
    RuleOpt,
    RulesFileOpt,
    SeedOpt,
    _console,
    _dumps,
    _escape,
    _game,
    _json_on_failure,
    _markdown,
    _rules,
    _seed,
    fail,
)
from kabucli.completion import (
    SHELLS,
    complete_game,
    complete_shell,
    complete_solver_game,
    script,
)
from kabucli.registry import GAMES

# -- rules -------------------------------------------------------------------------------

@_json_on_failure
def rules(
    game: Annotated[str | None, typer.Argument(metavar="GAME",
                                               help="A game to explain; all games if left "
                                                     "out.", autocompletion=complete_game)] = None,
    as_json: JsonOpt = False,
) -> None:
    """List the games, or explain one: its rules, move notation and house rules."""
    from rich.table import Table

    from kabucli import bots, games
    from kabucli.render import rule_value
    from kabucli.render.fit import fit
    from kabucli.rules import describe

    out = _console()
    if game is None:
        if as_json:
            data = [{"name": g.name, "title": g.title, "players": [g.min_players, g.max_players],
                     "deck": g.deck.name, "summary": g.summary}
                    for g in (games.get(n) for n in games.names())]
            print(_dumps(data, indent=2))
            return
        t = Table(title="kabucli games", title_justify="left")
        for col in ("game", "players", "deck", "what it is"):
            t.add_column(col)
        for name in games.names():
            g = games.get(name)
            t.add_row(g.name, f"{g.min_players}-{g.max_players}", g.deck.title, g.summary)
        out.print(fit(t))
        out.print("Explain one with [bold]kabucli rules GAME[/].")
        return
    g = _game(game)
    infos = describe(g.Rules)
    kinds = {**bots.about(g.name), **bots.EXTERNAL_ABOUT}
    if as_json:
        print(_dumps({
            "name": g.name, "title": g.title, "players": [g.min_players, g.max_players],
            "rules": games.page(g.name), "notation": games.notation(g.name),
            "house_rules": [{"name": i.name, "type": i.kind, "default": i.default,
                             "help": i.help} for i in infos],
            "bots": [{"kind": k, "about": a} for k, a in kinds.items()]}, indent=2))
        return
    _markdown(out, games.page(g.name))
    out.print()
    t = Table(title="House rules (--rule NAME=VALUE)", title_justify="left")
    t.add_column("name", style="bold")
    t.add_column("values")
    t.add_column("default")
    t.add_column("what it does")
    for i in infos:
        t.add_row(i.name, i.kind, rule_value(i.default), i.help)
    out.print(fit(t))
    t = Table(title="Bots (play --bot SEAT=KIND, sim --bot KIND)", title_justify="left")
    t.add_column("kind", style="bold")
    t.add_column("what it does")
    for kind, what in kinds.items():
        t.add_row(_escape(kind), _escape(what))
    out.print(fit(t))


# -- deal --------------------------------------------------------------------------------

@_json_on_failure
def deal(
    game: GameArg,
    seed: SeedOpt = None,
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the first deal of a seeded game."""
    from kabucli import render
    from kabucli.errors import KabuError
    from kabucli.session import build_seats, random_seed, start

    g = _game(game)
    r = _rules(g, rule or [], rules_file)
    s = _seed(seed)
    try:
        seats = build_seats(g, players, [], [])
        sess = start(g, r, seats, s if s is not None else random_seed(), None, None)
        sess.match.advance()
    except KabuError as exc:
        fail(str(exc))
    m = sess.match
    if as_json:
        print(_dumps({"seed": m.seed, "state": g.view(m.state)}, indent=2))
        return
    out = _console()
    out.print(f"[dim]seed {m.seed}[/]")
    out.print(render.table(g, m))


# -- solve -------------------------------------------------------------------------------

@_json_on_failure
def solve(
    game: Annotated[str, typer.Argument(metavar="GAME", help=f"The game: {', '.join(GAMES)}.",
                                        autocompletion=complete_solver_game)],
    cards: Annotated[list[str], typer.Argument(metavar="CARDS",
                                               help="The cards of the hand, e.g. 1 3 5 7 ...")],
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    rules_file: RulesFileOpt = None,
    top: Annotated[int, typer.Option("--top", metavar="N", min=1, max=50,
                                     help="How many arrangements to show.")] = 5,
    as_json: JsonOpt = False,
) -> None:
    """Find the best ways to play a hand (Kabu-Tsukuri: its three rows)."""
    from kabucli.errors import KabuError

    g = _game(game)
    solver = getattr(g, "solve", None)
    if solver is None:
        fail(f"{g.title} has no solver (kabu-tsukuri has one)")
    r = _rules(g, rule or [], rules_file)
    try:
        answer = solver(r, cards, players, top)
    except KabuError as exc:
        fail(str(exc))
    if as_json:
        print(_dumps(answer, indent=2))
        return
    from kabucli import games

    _console().print(games.part(g.name, "render").solution(answer))


# -- completion --------------------------------------------------------------------------

def completion(
    shell: Annotated[str, typer.Argument(metavar="SHELL", help="bash, zsh or fish.",
                                         autocompletion=complete_shell)],
) -> None:
    """Print the shell completion script (the files in completions/ are these)."""
    if shell.lower() not in SHELLS:  # (BASH as bash, as 'rules DARE' takes dare)
        fail(f"no completion for shell '{shell}' (shells: {', '.join(SHELLS)})")
    print(script(shell.lower()), end="")
