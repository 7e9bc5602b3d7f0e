"""Games written down as text: rule scenarios (``wonders check``) and game logs (replays).

A scenario runner per offer mechanism (:mod:`.draft`, :mod:`.structure`, :mod:`.dice`)
sets a game up from a scenario's ``position:`` and checks its expectations; :mod:`.log`
writes a game as JSON Lines and replays it.  Both speak to a game only through the
contract (:mod:`wonders.engine.contract`).
"""
