"""Ratings: one per account and game, Elo-style over a multi-player game's final ranking.

A finished **normal** game between two or more accounts changes the rating of each
of them (guests and bots count for nothing; training games change nothing).  The
formula, pairwise Elo over the final ranking (docs/serve.md):

* every account starts a game at ``INITIAL`` (1500) when it has no rating yet;
* for each pair (i, j) of the game's n accounts, i's score against j is
  ``S = 1`` if i finished above j, ``0.5`` if level, ``0`` if below, and its expected
  score ``E = 1 / (1 + 10 ** ((R_j - R_i) / 400))``;
* i's rating changes by ``K / (n - 1) * sum over j of (S - E)``, ``K = 32``: a
  two-player game is plain Elo, and a game of more players moves a rating no more
  than one game against one rival would.

"Above" is the score sheet's own order: an outright win (military or science
supremacy) first, then points, then the rule set's tie-breaks (coins, …); seats
equal on all of them are level.  The changes are written in the same transaction
as the game's last move, so a crash never rates a game twice or not at all.
"""

from __future__ import annotations

from typing import Any, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from wonders.serve import store as db

INITIAL = 1500.0
K = 32.0


def expected(mine: float, theirs: float) -> float:
    """The Elo expected score of a rating ``mine`` against ``theirs``."""
    return float(1.0 / (1.0 + 10.0 ** ((theirs - mine) / 400.0)))


def changes(ratings: Sequence[float], places: Sequence[Any]) -> list[float]:
    """Each player's rating change, from the ratings before and where each finished
    (comparable keys: a higher key finished above; equal keys are level)."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    found = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i == j:
                continue
            score = 1.0 if places[i] > places[j] else 0.5 if places[i] == places[j] else 0.0
            total += score - expected(ratings[i], ratings[j])
        found.append(K / (n - 1) * total)
    return found


def place(sheet: Any, seat: int) -> tuple[int, ...]:
    """Where a seat finished, as a key (higher is better): the sheet's order."""
    won = 1 if sheet.decided is not None and seat in sheet.decided else 0
    return (won, sheet.total(seat),
            *(sheet.coins[seat] if name == "coins" else sheet.lines[seat].get(name, 0)
              for name in sheet.tie_break))


def rate_op(game: str, table_id: str, accounts: list[int], places: list[Any],
            at: float) -> db.Op:
    """The writes that rate a finished game (run in its last move's transaction)."""

    def rate(connection: Connection) -> None:
        rows = connection.execute(sa.select(db.ratings.c.account_id, db.ratings.c.rating,
                                            db.ratings.c.games).where(
            (db.ratings.c.game == game) & (db.ratings.c.account_id.in_(accounts)))).all()
        known = {int(r[0]): (float(r[1]), int(r[2])) for r in rows}
        before = [known.get(a, (INITIAL, 0))[0] for a in accounts]
        deltas = changes(before, places)
        ranks = [1 + sum(1 for other in places if other > mine) for mine in places]
        for account, old, delta, rank in zip(accounts, before, deltas, ranks):
            new = round(old + delta, 2)
            if account in known:
                db.run(connection, db.ratings.update().where(
                    (db.ratings.c.account_id == account) & (db.ratings.c.game == game)).values(
                    rating=new, games=known[account][1] + 1))
            else:
                db.run(connection, db.ratings.insert().values(
                    account_id=account, game=game, rating=new, games=1))
            db.run(connection, db.rating_changes.insert().values(
                account_id=account, game=game, table_id=table_id, before=old, after=new,
                rank=rank, at=at))

    return rate


def leaderboard(store: db.Store, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The accounts rated in ``game``, best first."""
    query = sa.select(db.accounts.c.name, db.ratings.c.rating, db.ratings.c.games).join(
        db.accounts, db.accounts.c.id == db.ratings.c.account_id).where(
        db.ratings.c.game == game).order_by(db.ratings.c.rating.desc(),
                                            db.accounts.c.name).limit(limit)
    with store.reading() as connection:
        return [{"name": r[0], "rating": round(float(r[1])), "games": int(r[2])}
                for r in connection.execute(query)]


def rated_games(store: db.Store) -> list[str]:
    """The games anyone has a rating in."""
    with store.reading() as connection:
        return sorted(str(r[0]) for r in connection.execute(
            sa.select(db.ratings.c.game).distinct()))


def player(store: db.Store, account: int) -> dict[str, Any]:
    """A player's page: ratings, games played, rating history, recent tables."""
    with store.reading() as connection:
        ratings = [{"game": r[0], "rating": round(float(r[1])), "games": int(r[2])}
                   for r in connection.execute(sa.select(
                       db.ratings.c.game, db.ratings.c.rating, db.ratings.c.games).where(
                       db.ratings.c.account_id == account).order_by(db.ratings.c.game))]
        history = [{"game": r[0], "table": r[1], "before": round(float(r[2]), 1),
                    "after": round(float(r[3]), 1), "rank": int(r[4]), "at": float(r[5])}
                   for r in connection.execute(sa.select(
                       db.rating_changes.c.game, db.rating_changes.c.table_id,
                       db.rating_changes.c.before, db.rating_changes.c.after,
                       db.rating_changes.c.rank, db.rating_changes.c.at).where(
                       db.rating_changes.c.account_id == account).order_by(
                       db.rating_changes.c.id.desc()).limit(200))]
        played = connection.execute(sa.select(sa.func.count()).select_from(db.seats).join(
            db.tables, db.tables.c.id == db.seats.c.table_id).where(
            (db.seats.c.account_id == account) & (db.tables.c.over == sa.true()))).scalar()
        tables = [{"table": r[0], "game": r[1], "mode": r[2], "over": bool(r[3]),
                   "seat": int(r[4]), "created": float(r[5]), "watch": f"/table/{r[0]}",
                   "log": f"/api/tables/{r[0]}/log" if r[3] else None,
                   "replay": f"/replay/{r[0]}" if r[3] else None}
                  for r in connection.execute(sa.select(
                      db.tables.c.id, db.tables.c.game, db.tables.c.mode, db.tables.c.over,
                      db.seats.c.seat, db.tables.c.created).join(
                      db.seats, db.seats.c.table_id == db.tables.c.id).where(
                      db.seats.c.account_id == account).order_by(
                      db.tables.c.created.desc()).limit(20))]
    return {"ratings": ratings, "played": int(played or 0), "history": history,
            "tables": tables}


__all__ = ["INITIAL", "K", "changes", "expected", "leaderboard", "place", "player",
           "rate_op", "rated_games"]
