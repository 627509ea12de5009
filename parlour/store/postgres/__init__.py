"""The PostgreSQL store, for hosting Parlour: `store` (the Store, its connection pool and
how a commit leaves the event loop free), `schema` (tables and migrations), `writes`
(each Change in SQL) and `reads`. It needs the `hosted` extra (psycopg, psycopg-pool):
import it only when a PostgreSQL database is asked for."""

from parlour.store.postgres.schema import SCHEMA_VERSION
from parlour.store.postgres.store import (
    PostgresStore,
    Unreachable,
    migrate_database,
    shown,
)

__all__ = ["SCHEMA_VERSION", "PostgresStore", "Unreachable", "migrate_database", "shown"]
