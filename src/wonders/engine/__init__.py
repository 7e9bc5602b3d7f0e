"""The rules engine: play games defined by a rule set and card sets.

Programs use the public API of the top-level package (``import wonders``:
``wonders.new_game``, the contract ``wonders.GameState`` …); a game in five lines::

    import wonders
    game = wonders.new_game("base", players=4, seed=1)
    while not game.over:
        game.play({seat: game.legal_actions(seat)[0] for seat in game.to_move()})
    print(game.score_sheet().to_json())

Importing the engine never imports the data language's parsing stack (YAML, Lark,
jsonschema): loops load card files only when asked to by name.
"""

from wonders.engine.actions import Action, Build, BuildFromDiscard, BuildStage, Sell, Skip
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.flow import __file__ as _hot_path_file
from wonders.engine.game import Game, Phase
from wonders.engine.payment import Payment
from wonders.engine.scoring import ScoreSheet

#: Whether the hot-path modules run compiled by mypyc (see setup.py) or as Python.
COMPILED: bool = not _hot_path_file.endswith(".py")

__all__ = ["Action", "Build", "BuildFromDiscard", "BuildStage", "COMPILED", "Game",
           "IllegalActionError", "Payment", "Phase", "RuleError", "ScoreSheet", "Sell", "Skip"]
