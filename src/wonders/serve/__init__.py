"""The online table: ``wonders serve``, humans and bots playing one game in the browser.

The server speaks to a game only through the game contract
(:mod:`wonders.engine.contract`): what a page shows is ``view(seat)`` plus a
generic description of ``legal_actions(seat)`` (:mod:`.present`), and what a
page sends is found again among the legal actions or refused
(:mod:`.protocol`).  Tables are kept as the engine's own game logs
(:mod:`.tables`), so a restarted server replays them to where they were.
Nothing here knows which game is played.
"""

# How long a finished game stays in memory (``--keep-finished``), here so that the command
# names it without importing the server's libraries.
FINISHED_KEEP_SECONDS = 3600.0
