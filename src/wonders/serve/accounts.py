"""Player accounts: sign up, sign in, sessions, CSRF tokens and the sign-in rate limit.

Passwords are hashed with argon2id (argon2-cffi's defaults); a session is a random
secret in a cookie (``Secure``, ``HttpOnly``, ``SameSite=Lax``) of which the
database keeps only the SHA-256, so a leaked database opens no session.  A visitor
who is not signed in gets a random ``visitor`` cookie of the same kind.  The CSRF
token of a page is an HMAC, under the server's secret (made once, kept in the
database), of the session's (or visitor's) secret: a page of this server reads it
from ``GET /api/session`` and sends it as ``X-CSRF-Token`` with every request that
changes something; another site's page can neither read it nor send the header
without the browser asking this server first.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable

import sqlalchemy as sa

from wonders.serve import store as db
from wonders.serve.protocol import RateLimit
from wonders.serve.store import Store

SESSION_COOKIE = "wonders_session"
VISITOR_COOKIE = "wonders_visitor"
CSRF_HEADER = "x-csrf-token"
SESSION_SECONDS = 30 * 24 * 3600
NAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
MIN_PASSWORD = 8
MAX_PASSWORD = 256
# sign-in attempts: 5 at once, then one every 10 s, per address and per account name
SIGN_IN_BURST = 5.0
SIGN_IN_PER_SECOND = 0.1


class AccountError(ValueError):
    """A sign-up or sign-in refused: the message says why (never which of the name or
    the password was wrong)."""


@dataclass(frozen=True)
class Account:
    """A signed-in player."""

    id: int
    name: str


class Accounts:
    """The accounts and sessions of one server's database."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        from argon2 import PasswordHasher

        self.store = store
        self.clock = clock
        self.hasher = PasswordHasher()
        self.secret = store.setting("secret", lambda: secrets.token_hex(32)).encode()
        self.limits: dict[str, RateLimit] = {}
        # a hash to verify against when the name is unknown: the answer takes as long
        self.dummy = self.hasher.hash(secrets.token_hex(16))

    # --- tokens ---------------------------------------------------------------------

    def csrf(self, cookie: str) -> str:
        """The CSRF token that goes with a session's or visitor's cookie."""
        return hmac.new(self.secret, b"csrf:" + cookie.encode("utf-8", "replace"),
                        hashlib.sha256).hexdigest()

    def csrf_ok(self, cookie: str | None, token: str | None) -> bool:
        """Whether a request's CSRF header matches its cookie (in constant time)."""
        if not cookie or not token:
            return False
        return hmac.compare_digest(self.csrf(cookie).encode(),
                                   token.encode("utf-8", "replace"))

    # --- signing up and in ----------------------------------------------------------

    def allow_attempt(self, *keys: str) -> bool:
        """Whether one more sign-in attempt is allowed for every key (address, name)."""
        now = time.monotonic()
        if len(self.limits) > 100_000:
            self.limits.clear()
        buckets = [self.limits.setdefault(k, RateLimit(SIGN_IN_PER_SECOND, SIGN_IN_BURST))
                   for k in keys]
        return all([bucket.allow(now) for bucket in buckets])

    def sign_up(self, name: Any, password: Any) -> Account:
        """A new account (AccountError: a bad name or password, a name taken)."""
        if not isinstance(name, str) or NAME.fullmatch(name) is None:
            raise AccountError("a name is 3 to 24 letters, digits, '-' or '_'")
        check_password(password)
        digest = self.hasher.hash(password)
        row = {"name": name, "name_key": name.lower(), "password_hash": digest,
               "created": self.clock()}
        try:
            with self.store.engine.begin() as connection:
                created = db.run(connection, db.accounts.insert().values(**row))
                account_id = int(created.inserted_primary_key[0])
        except sa.exc.IntegrityError:
            raise AccountError(f"the name {name} is taken") from None
        return Account(account_id, name)

    def sign_in(self, name: Any, password: Any) -> Account:
        """The account whose name and password these are (AccountError otherwise)."""
        from argon2.exceptions import VerificationError

        wrong = AccountError("wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str) \
                or len(password) > MAX_PASSWORD or len(name) > 64:
            raise wrong
        row = None
        if NAME.fullmatch(name) is not None:   # no account has another name: not asked
            with self.store.reading() as connection:   # (PostgreSQL refuses a NUL in text)
                row = connection.execute(sa.select(
                    db.accounts.c.id, db.accounts.c.name, db.accounts.c.password_hash).where(
                    db.accounts.c.name_key == name.lower())).first()
        try:
            self.hasher.verify(row[2] if row is not None else self.dummy, password)
        except VerificationError:
            raise wrong from None
        if row is None:
            raise wrong
        return Account(int(row[0]), str(row[1]))

    # --- sessions -------------------------------------------------------------------

    def open_session(self, account: Account) -> str:
        """A new session's secret (the cookie's value)."""
        token = secrets.token_urlsafe(32)
        row = {"id": _digest(token), "account_id": account.id, "created": self.clock()}
        self.store.write_now([lambda c: db.run(c, db.sessions.insert().values(**row))])
        return token

    def session(self, token: str | None) -> Account | None:
        """The account a session cookie signs in, or None (unknown, expired, malformed)."""
        if not token or len(token) > 128:
            return None
        with self.store.reading() as connection:
            row = connection.execute(sa.select(
                db.accounts.c.id, db.accounts.c.name, db.sessions.c.created).join(
                db.accounts, db.accounts.c.id == db.sessions.c.account_id).where(
                db.sessions.c.id == _digest(token))).first()
        if row is None or self.clock() - float(row[2]) > SESSION_SECONDS:
            return None
        return Account(int(row[0]), str(row[1]))

    def close_session(self, token: str | None) -> None:
        if token:
            key = _digest(token)
            self.store.write_now([lambda c: db.run(c, db.sessions.delete().where(
                db.sessions.c.id == key))])

    def by_name(self, name: str) -> Account | None:
        """The account of a name; None, without asking the database, for text no account
        name can be (a NUL in it, which PostgreSQL refuses to compare, made a 500)."""
        if NAME.fullmatch(name) is None:
            return None
        with self.store.reading() as connection:
            row = connection.execute(sa.select(db.accounts.c.id, db.accounts.c.name).where(
                db.accounts.c.name_key == name.lower())).first()
        return None if row is None else Account(int(row[0]), str(row[1]))


def check_password(password: Any) -> None:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


__all__ = ["Account", "AccountError", "Accounts", "CSRF_HEADER", "SESSION_COOKIE",
           "VISITOR_COOKIE"]
