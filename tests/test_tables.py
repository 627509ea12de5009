"""Solver tables: built once, kept in a file, read back; rebuilt when their version
changes or their file is damaged; never torn by two builders at once."""

from __future__ import annotations

import asyncio
import pickle
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from parlour.core import progress, tables
from parlour.server.compute import Compute
from tests import jobs_for_tests as jobs
from tests.support.loops import run_async

SQUARES_SUM = sum(number * number for number in range(1000))


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder of tables of this test's own, and nothing of the table in memory."""
    monkeypatch.setenv(tables.FOLDER_VARIABLE, str(tmp_path))
    tables.forget(jobs.SQUARES)
    yield tmp_path
    tables.forget(jobs.SQUARES)


@pytest.fixture(scope="module")
def compute() -> Iterator[Compute]:
    pool = Compute(workers=2)
    yield pool
    pool.close()


def squares_sum() -> int:
    squares = tables.get(jobs.SQUARES)
    return sum(squares)


def builds(folder: Path) -> int:
    log = folder / "builds.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_a_table_is_built_once_then_read_from_its_file(folder: Path) -> None:
    assert not tables.ready(jobs.SQUARES)
    assert squares_sum() == SQUARES_SUM
    assert builds(folder) == 1
    assert tables.path(jobs.SQUARES) == folder / "squares-v1.pickle"
    assert tables.ready(jobs.SQUARES)
    tables.get(jobs.SQUARES)  # from memory
    tables.forget(jobs.SQUARES)
    assert tables.ready(jobs.SQUARES)  # the file is there
    assert squares_sum() == SQUARES_SUM
    assert builds(folder) == 1


def test_a_worker_reads_the_file_another_process_built(folder: Path, compute: Compute) -> None:
    tables.get(jobs.SQUARES)
    assert run_async(compute.run(10, jobs.squares_from, str(folder))) == SQUARES_SUM
    assert builds(folder) == 1


def test_a_new_version_is_built_again(folder: Path) -> None:
    tables.get(jobs.SQUARES)
    newer = tables.Table("squares", version=2, build=jobs.build_squares)
    assert not tables.ready(newer)
    assert tables.get(newer) == tables.get(jobs.SQUARES)
    assert builds(folder) == 2
    assert sorted(path.name for path in folder.glob("squares-*")) == [
        "squares-v1.pickle", "squares-v2.pickle",
    ]
    tables.forget(newer)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_a_damaged_file_is_built_again(folder: Path, damage: str) -> None:
    tables.get(jobs.SQUARES)
    file = tables.path(jobs.SQUARES)
    whole = file.read_bytes()
    damaged = {"garbage": b"not a table", "truncated": whole[: len(whole) // 2], "empty": b""}
    file.write_bytes(damaged[damage])
    tables.forget(jobs.SQUARES)
    assert squares_sum() == SQUARES_SUM
    assert builds(folder) == 2
    assert file.read_bytes() == whole  # and kept, whole, for next time


def test_two_processes_building_at_once_leave_one_good_file(
    folder: Path, compute: Compute
) -> None:
    async def build_twice() -> list[int]:
        await asyncio.gather(*(compute.run(10, jobs.square, 2) for _ in range(2)))  # both up
        return await asyncio.gather(
            *(compute.run(10, jobs.squares_from, str(folder)) for _ in range(2))
        )

    assert run_async(build_twice()) == [SQUARES_SUM, SQUARES_SUM]
    assert builds(folder) == 2  # at the same time: neither found the other's file
    assert sorted(path.name for path in folder.iterdir()) == ["builds.log", "squares-v1.pickle"]
    with tables.path(jobs.SQUARES).open("rb") as file:
        assert sum(pickle.load(file)) == SQUARES_SUM


def test_building_reports_progress(folder: Path) -> None:
    heard: list[tuple[float | None, str]] = []
    with progress.listening(lambda done, note: heard.append((done, note))):
        tables.get(jobs.SQUARES)
    assert heard[0] == (None, "Building the squares")
    # 0.0 came too soon after the first report to be passed on
    assert [done for done, _ in heard[1:]] == [0.25, 0.5, 0.75]
    assert {note for _, note in heard} == {"Building the squares"}
    heard.clear()
    tables.forget(jobs.SQUARES)
    with progress.listening(lambda done, note: heard.append((done, note))):
        tables.get(jobs.SQUARES)  # read from its file: nothing to wait for
    assert heard == []


def test_building_in_a_worker_reports_progress(folder: Path, compute: Compute) -> None:
    heard: list[tuple[float | None, str]] = []
    run_async(compute.run(
        10, jobs.squares_from, str(folder), progress=lambda *report: heard.append(report)
    ))
    assert heard[0] == (None, "Building the squares")
    assert (0.5, "Building the squares") in heard


def write_bytes(value: bytes, file: IO[bytes]) -> None:
    file.write(value)


def read_bytes(file: IO[bytes]) -> bytes:
    value = file.read()
    if len(value) != 256:
        raise ValueError(f"{len(value)} bytes, not 256")
    return value


def every_byte() -> bytes:
    return bytes(range(256))


def test_a_game_may_keep_a_table_in_its_own_format(folder: Path) -> None:
    raw = tables.Table(
        "bytes", version=3, build=every_byte, dump=write_bytes, load=read_bytes, suffix="bin"
    )
    assert tables.get(raw) == every_byte()
    assert (folder / "bytes-v3.bin").read_bytes() == every_byte()
    (folder / "bytes-v3.bin").write_bytes(array("B", [1, 2]).tobytes())
    tables.forget(raw)
    assert tables.get(raw) == every_byte()  # the short file was refused and rebuilt
    tables.forget(raw)


def test_a_table_that_cannot_be_kept_still_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_folder = tmp_path / "a file"
    not_a_folder.write_text("")
    monkeypatch.setenv(tables.FOLDER_VARIABLE, str(not_a_folder / "tables"))
    unkept = tables.Table("unkept", version=1, build=every_byte)
    assert tables.get(unkept) == every_byte()
    assert not tables.ready(tables.Table("unkept", version=2, build=every_byte))
    tables.forget(unkept)


def test_the_folder_is_the_users_data_folder_unless_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(tables.FOLDER_VARIABLE)
    assert tables.folder().name == "tables"
    assert "parlour" in tables.folder().parent.name.lower()
