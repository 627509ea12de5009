"""Tables a solver needs, built once and kept: in memory, and in the user's data folder.

A game declares each table it uses, with a module-level function that builds it:

    VALUES = Table("tictactoe-values", version=1, build=solve_every_position)
    value = tables.get(VALUES)[key]

`get` returns the table from this process's memory, else from its file
(`<data dir>/tables/<name>-v<version>.<suffix>`), else builds it (the build may report
progress), writes the file and keeps it. Bump `version` when the table's contents
change: the old file is then left alone and a new one is built. Files are written to a
temporary name and renamed into place, so a crash or two processes building at once
never leave a torn file; a file that cannot be read is built again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

import platformdirs

from parlour.core import progress

T = TypeVar("T")

log = logging.getLogger("parlour")

FOLDER_VARIABLE = "PARLOUR_TABLES"
"""An environment variable naming the folder for table files (tests use their own)."""


def pickle_dump(value: object, file: IO[bytes]) -> None:
    pickle.dump(value, file, protocol=5)


def pickle_load(file: IO[bytes]) -> Any:
    return pickle.load(file)


@dataclass(frozen=True)
class Table(Generic[T]):
    """A table a game computes once. `build` is a module-level function (it may run in a
    worker process); `dump` and `load` write and read it (pickle unless the game has a
    more compact form, such as an array of bytes)."""

    name: str
    version: int
    build: Callable[[], T]
    title: str = ""  # for players: "the pattern database" ("Building the …")
    dump: Callable[[T, IO[bytes]], None] = pickle_dump
    load: Callable[[IO[bytes]], T] = pickle_load
    suffix: str = "pickle"

    @property
    def file_name(self) -> str:
        return f"{self.name}-v{self.version}.{self.suffix}"


_loaded: dict[tuple[str, int], Any] = {}
_building = threading.Lock()  # one build at a time in this process


def folder() -> Path:
    configured = os.environ.get(FOLDER_VARIABLE)
    if configured:
        return Path(configured)
    return Path(platformdirs.user_data_dir("parlour", appauthor=False)) / "tables"


def path(table: Table[Any]) -> Path:
    return folder() / table.file_name


def ready(table: Table[Any]) -> bool:
    """Whether `get` will be quick: the table is in memory or its file is there."""
    return (table.name, table.version) in _loaded or os.access(path(table), os.R_OK)


def get(table: Table[T]) -> T:
    """The table: from memory, else its file, else built (and written for next time)."""
    key = (table.name, table.version)
    if key in _loaded:
        return _loaded[key]  # type: ignore[no-any-return]
    with _building:
        if key not in _loaded:
            _loaded[key] = _read_or_build(table)
        return _loaded[key]  # type: ignore[no-any-return]


def forget(table: Table[Any]) -> None:
    """Drop the copy in memory (tests; the file stays)."""
    _loaded.pop((table.name, table.version), None)


def _read_or_build(table: Table[T]) -> T:
    file = path(table)
    try:
        with file.open("rb") as stream:
            return table.load(stream)
    except FileNotFoundError:
        pass
    except Exception as error:  # torn by something else, or unreadable: build it anew
        log.warning("table file %s cannot be read (%s): building it again", file, error)
    value = _build(table)
    _write(table, value, file)
    return value


def _build(table: Table[T]) -> T:
    with progress.doing(f"Building {table.title or table.name}"):
        return table.build()


def _write(table: Table[T], value: T, file: Path) -> None:
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        _write_whole(table, value, file)
    except OSError as error:  # a read-only or full disk: the table still works, unkept
        log.warning("table %s could not be kept in %s (%s)", table.name, file, error)


def _write_whole(table: Table[T], value: T, file: Path) -> None:
    """Write to a temporary file in the same folder, then rename it into place: readers
    see no file or a whole one, never part of one."""
    handle, temporary = tempfile.mkstemp(dir=file.parent, prefix=f".{file.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            table.dump(value, stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
