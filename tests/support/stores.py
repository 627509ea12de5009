"""Tests that run on each store: the mark that runs a test on SQLite's and on
PostgreSQL's (through the `store` fixture, and so the `client`'s app), and what such a
test needs to say the same of either."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from parlour.store import Store
from parlour.store.sqlite import SqliteStore

STORES = ("sqlite", "postgres")

on_both_stores = pytest.mark.parametrize("store", STORES, indirect=True)
"""Run the test on a SQLite store, then on a PostgreSQL one."""


def integrity_errors() -> tuple[type[Exception], ...]:
    """What either store raises when a write breaks a key or a constraint."""
    try:
        import psycopg
    except ImportError:
        return (sqlite3.IntegrityError,)
    return (sqlite3.IntegrityError, psycopg.IntegrityError)


def reopened(store: Store) -> Store:
    """Another store on the same data, as after a restart (the caller closes it)."""
    if isinstance(store, SqliteStore):
        return SqliteStore(store.path)
    from parlour.store.postgres import PostgresStore

    assert isinstance(store, PostgresStore)
    return PostgresStore(store.url)


def run_sql(store: Store, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """A test's own statement on either store, committed, and the rows it returns: SQL
    both read alike, with `?` for each argument."""
    if isinstance(store, SqliteStore):
        return [tuple(row) for row in store.db.execute(sql, args)]
    import psycopg

    from parlour.store.postgres import PostgresStore

    assert isinstance(store, PostgresStore)
    with psycopg.connect(store.url) as db:
        done = db.execute(sql.replace("?", "%s"), args)
        return done.fetchall() if done.description else []
