"""The SQLite store, Parlour's embedded default: `store` (the Store), `schema` (tables
and migrations), `writes` (each Change in SQL), `reads`, and `durability` (the
connection's settings, group commit and the checkpointer)."""

from parlour.store.sqlite.durability import CHECKPOINT_SECONDS, SYNC_MODES
from parlour.store.sqlite.store import SqliteStore, default_path

__all__ = ["CHECKPOINT_SECONDS", "SYNC_MODES", "SqliteStore", "default_path"]
