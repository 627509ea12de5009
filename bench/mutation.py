"""Mutation testing (issue 34): small bugs put into the modules whose bugs cost players or
hosts, one at a time, to see whether the tests that cover each one notice.

The tool is mutmut 3 (the `mutation` extra: `pip install -e '.[mutation]'`). It was
chosen over cosmic-ray because it runs each mutant in a process forked from one that has
already imported everything and run the suite once, and it runs only the tests that
called the mutated function during that first run (fastest first, stopping at the first
failure). A mutant costs a fraction of a second, not the seconds of a fresh pytest
per mutant that cosmic-ray spends, which is what lets some 5 000 mutants be tried in
hours, not days, on two cores. It is maintained, and its trampolines need no change to the
code.

`COVERING_TESTS` below is the one place that says which modules are mutated and which
test files are run for them; mutmut then narrows each mutant to the tests, of those,
that call its function. Tests that start a real server or Chromium are left out (they
are slow, and a server process would not see the mutant). Mutants judged equivalent
(no player or host could tell them apart from the code) are listed, one line each with
the reason, in bench/mutation_equivalent.toml; they do not count towards the kill rate.

mutmut works in a folder of its own per module, bench/results/mutation/<module>/
(git-ignored): the package, tests and a pyproject.toml with its settings are copied into
mutants/ there.

Run from the repository root. Each module is mutated in a workspace of its own
(`workspace_name`), so its mutants meet only its covering tests; `--set` picks modules by
group (core-games, store, server), and with no option every module is mutated in turn:
    .venv/bin/python -m bench.mutation [--set core-games store server] [--quick] [--report]
                                       [--modules PATH ...]

--quick keeps what the last run killed and tries the rest again (the mutants that
survived it, and those of functions changed since), after tests were added. Mutants
listed as equivalent are never tried: each would run every test that calls its function,
minutes for the store's SQL.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "mutation"
WORKSPACE = RESULTS / "core.session"
"""mutmut's folder for the module being mutated (`workspace_name`)."""
EQUIVALENT_FILE = ROOT / "bench" / "mutation_equivalent.toml"
WORKERS = 2

def game_tests(game: str, *files: str) -> tuple[str, ...]:
    return tuple(f"parlour/games/{game}/tests/{file}" for file in files)


PROPERTIES = "tests/test_properties.py"
STORE_MODULES = tuple(f"parlour/store/{name}.py" for name in (
    "sqlite/schema", "sqlite/writes", "sqlite/reads", "sqlite/durability", "sqlite/store",
    "changes", "quota", "sql", "assembly"))
STORE_TESTS = tuple(f"tests/{name}.py" for name in (
    "test_store_stats", "test_uploads", "test_resume", "test_series", "test_help_and_moves",
    "test_seats", "test_daily", "test_backup", "test_import_limits", "test_honest_stats",
    "test_replays", "test_timing"))
"""The store's tests: its own (writes, reads, the full-sync commit), the migrations from
each old version (uploads, resume, series, help per seat, results filed apart, imports),
and those that save and read back seats, daily starts, backups, imports' quotas, the
statistics' groups and the past games through the server's code, and the sync modes'
(the checkpointer's flush, the full-sync commit)."""

COVERING_TESTS: dict[str, tuple[str, ...]] = {
    "parlour/core/session.py": (PROPERTIES, "tests/test_session.py", "tests/test_clock.py",
                                "tests/test_saved_games.py", "tests/test_help_and_moves.py"),
    "parlour/core/gameid.py": (PROPERTIES, "tests/test_saved_games.py",
                               "tests/test_end_figures.py"),
    "parlour/core/positions.py": (PROPERTIES,),
    "parlour/core/commands.py": ("tests/test_commands.py", "tests/test_key_table.py"),
    "parlour/games/escalator/logic.py": game_tests("escalator", "test_rules.py", "test_api.py",
                                                   "test_view.py"),
    "parlour/games/ishido/logic.py": game_tests("ishido", "test_rules.py"),
    "parlour/games/minesweeper/logic.py": game_tests("minesweeper", "test_rules.py",
                                                     "test_first_click.py", "test_api.py"),
    "parlour/games/sliding/logic.py": game_tests("sliding", "test_rules.py", "test_api.py",
                                                 "test_view.py"),
    "parlour/games/tictactoe/logic.py": game_tests("tictactoe", "test_rules.py"),
    "parlour/games/tribolo/logic.py": game_tests("tribolo", "test_rules.py", "test_logic.py",
                                                 "test_api.py", "test_view.py"),
    "parlour/games/tribolo/rules.py": game_tests("tribolo", "test_rules.py", "test_logic.py"),
    **dict.fromkeys(STORE_MODULES, STORE_TESTS),
    "parlour/server/api/guard.py": ("tests/test_hostile.py", "tests/test_clients.py"),
    "parlour/server/hub/seats.py": ("tests/test_seats.py", "tests/test_hub.py",
                                    "tests/test_api.py"),
}
"""Each mutated module and the test files run against its mutants (each module runs
alone, and mutmut runs a mutant against those of its tests that called its function).
The games' solver and AI tests are left out: they call the rules
millions of times, so a surviving mutant would cost minutes; the rules tests must
catch a rules bug."""

SETS: dict[str, tuple[str, ...]] = {
    "core-games": tuple(module for module in COVERING_TESTS
                        if module.startswith(("parlour/core/", "parlour/games/"))),
    "store": STORE_MODULES,
    "server": ("parlour/server/api/guard.py", "parlour/server/hub/seats.py"),
}
"""Names for groups of modules on the command line (each module still runs on its own)."""

LEFT_OUT: dict[str, tuple[str, ...]] = {
    PROPERTIES: ("escalator", "ishido", "minesweeper", "sliding", "tictactoe", "tribolo",
                 "test_long_lines_rebuild_every_position"),
    "tests/test_saved_games.py": ("tictactoe:standard#mdckmbeyq1",),
    "parlour/games/sliding/tests/test_rules.py": (
        "test_the_random_shuffle_is_uniform_over_solvable_3x3_positions",
        "test_the_solvability_test_agrees_with_every_position_slides_reach",
    ),
    "parlour/games/tribolo/tests/test_rules.py": (
        "test_the_move_generator_agrees_with_a_simple_one_along_random_games",
        "test_the_move_generator_agrees_with_a_simple_one_on_random_boards",
    ),
    "parlour/games/tribolo/tests/test_api.py": (
        "test_blue_plays_against_two_computers_by_default_to_the_end",
    ),
    "tests/test_timing.py": (
        "test_with_sync_normal_an_acknowledged_move_survives_a_kill",
        "test_the_server_leaves_its_startup_heap_out_of_garbage_collection",
    ),
    "tests/test_backup.py": (
        "test_a_backup_restored_on_another_machine_brings_back_games_results_and_pictures",
        "test_restore_twice_equals_restore_once_and_order_does_not_matter",
    ),
}
"""Tests of the pool left out, by name or parameter: each takes 5 to 40 s (several times
that under mutmut's trampolines), and a surviving mutant runs every test of the pool that
calls its function, so one of them would cost minutes per survivor. Of the property tests
only those of the test double stay (it takes every path of the session, with a random
deal, parameters and every undo rule; tests/test_session.py plays Tic-Tac-Toe's two
seats), and the exhaustive cross-checks of Sliding's shuffles and Tribolo's move
generator go: the rules tests must catch a rules bug on their own."""

PYTEST_ARGUMENTS = ("-p", "no:cacheprovider", "-p", "mutation_plugin", "-m", "not browser",
                    "-k", "not postgres", "--hypothesis-seed=0")
"""For every pytest run mutmut makes: no browser tests, none on PostgreSQL (each pytest run
would start a server of its own, seconds per mutant; the mutated modules are the
embedded store's and those both stores share), the same examples each run, and the
plugin below."""

PLUGIN = '''"""bench.mutation's plugin for the pytest runs of mutmut.

mutmut runs pytest many times in one process, and in processes forked from it. The
server's long work is done in the test's own process, not in worker processes (a forked
process inherits its parent's pool without the threads that feed it and would wait on it
for good, and a pool of its own costs each mutant seconds to start). Each run forgets the
solver tables an earlier run loaded (each run's tables go to a folder of its own), and
empties the caches of the code and tests (`functools.cache`, `lru_cache`): a result
cached by an earlier run, without the mutant, would hide the mutant. The tests of LEFT_OUT are
deselected.\"\"\"

import os
import sys
from typing import Any

from parlour.core import tables
from parlour.server import compute

LEFT_OUT = {left_out!r}


class InProcess(compute.Compute):
    async def run(self, budget: float, work: Any, *args: Any, progress: Any = None,
                  started: Any = None) -> Any:
        if started is not None:
            started()
        return work(*args)

    def warm_up(self) -> None:
        pass


def pytest_sessionstart() -> None:
    tables._loaded.clear()
    compute._shared = InProcess()
    here = os.getcwd()
    for module in list(sys.modules.values()):
        if not (getattr(module, "__file__", None) or "").startswith(here):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    def left_out(item: Any) -> bool:
        names = LEFT_OUT.get(item.nodeid.partition("::")[0], ())
        given = getattr(item, "callspec", None)
        return getattr(item, "originalname", item.name) in names or (
            given is not None and given.id in names)

    config.hook.pytest_deselected(items=[item for item in items if left_out(item)])
    items[:] = [item for item in items if not left_out(item)]
'''
"""Written into mutmut's folder and loaded with `-p`. It reaches into two private names
of Parlour's (`tables._loaded`, `compute._shared`): repoint them if those modules move.
Tests of the worker pool itself (budgets, cancellation) belong in no pool here."""


@dataclass
class Tally:
    """One module's mutants by outcome, and the names of those not killed."""

    counts: Counter[str] = field(default_factory=Counter)
    survivors: list[str] = field(default_factory=list)
    equivalent: list[str] = field(default_factory=list)
    untested: list[str] = field(default_factory=list)

    @property
    def kill_rate(self) -> float:
        judged = self.counts["killed"] + self.counts["timeout"]
        counted = sum(self.counts.values()) - len(self.equivalent)
        return judged / counted if counted else 1.0


def toml_value(value: object) -> str:
    """Strings and lists of strings, written as TOML (JSON's forms of them are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def mutmut_settings(modules: list[str]) -> dict[str, object]:
    tests = sorted({test for module in modules for test in COVERING_TESTS[module]})
    return {
        "source_paths": ["parlour"],
        "only_mutate": modules,
        "also_copy": ["conftest.py", "mutation_plugin.py"],
        "pytest_add_cli_args_test_selection": tests,
        "pytest_add_cli_args": list(PYTEST_ARGUMENTS),
        "use_git_change_detection": False,
        "timeout_multiplier": TIMEOUT_MULTIPLIER,
    }


TIMEOUT_MULTIPLIER = 3.0
"""A mutant times out (and counts as killed) after 6 times the CPU time of the tests it
runs, plus 6 s: mutmut's default, 30 times, let one endless loop under a rule every test
calls (Tribolo's) hold a worker for half an hour."""


def prepare_workspace(modules: list[str], quick: bool) -> None:
    """The folder mutmut runs in: links to the package and tests, and the project's
    pyproject.toml with a [tool.mutmut] table for these modules."""
    if not quick and WORKSPACE.exists():
        shutil.rmtree(WORKSPACE)
    WORKSPACE.mkdir(parents=True, exist_ok=True)
    for name in ("parlour", "tests", "conftest.py"):
        link = WORKSPACE / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name)
    (WORKSPACE / "mutation_plugin.py").write_text(PLUGIN.format(left_out=LEFT_OUT))
    settings = "\n".join(f"{key} = {toml_value(value)}" for key, value in
                         mutmut_settings(modules).items())
    project = (ROOT / "pyproject.toml").read_text()
    (WORKSPACE / "pyproject.toml").write_text(f"{project}\n[tool.mutmut]\n{settings}\n")


def mutant_exit_codes(module: str) -> dict[str, int | None]:
    meta = WORKSPACE / "mutants" / f"{module}.meta"
    if not meta.exists():
        return {}
    codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
    return codes


def run_mutmut(names: list[str], log: Path) -> int:
    command = [str(Path(sys.executable).parent / "mutmut"), "run", "--max-children",
               str(WORKERS), *names]
    with log.open("a") as output:
        return subprocess.run(command, cwd=WORKSPACE, stdin=subprocess.DEVNULL, stdout=output,
                              stderr=subprocess.STDOUT, check=False).returncode


def load_equivalent() -> dict[str, dict[str, str]]:
    """Mutant name -> {"change": its one-line diff, "why": why no one could tell}. The file
    has a table per module, of the mutants' names within it."""
    listed: dict[str, dict[str, str]] = {}
    for module, entries in tomllib.loads(EQUIVALENT_FILE.read_text()).items():
        prefix = module.removesuffix(".py").replace("/", ".")
        listed.update({f"{prefix}.{name}": entry for name, entry in entries.items()})
    return listed


def tally(module: str, equivalent: dict[str, dict[str, str]]) -> Tally:
    from mutmut.stats import status_by_exit_code

    result = Tally()
    codes = mutant_exit_codes(module)
    for name, code in sorted(codes.items(), key=lambda item: mutant_order(item[0])):
        status = status_by_exit_code[code]
        result.counts[status] += 1
        if (name in equivalent and status not in ("killed", "timeout")
                and still_the_same(module, name, equivalent[name]["change"])):
            result.equivalent.append(name)
        elif status == "no tests":
            result.untested.append(name)
        elif status not in ("killed", "timeout", "not checked"):
            result.survivors.append(name)
    return result


def still_the_same(module: str, name: str, listed_change: str) -> bool:
    """Whether a mutant listed as equivalent still makes the change it was listed for: a
    function edited since numbers its mutants anew, and a name may now be another one
    (which then counts as what it is, and the report names it stale)."""
    current = one_line_change(module, name).partition(": ")[2]
    if current == listed_change:
        return True
    print(f"stale in {EQUIVALENT_FILE.name}: {name} is now {current!r}", file=sys.stderr)
    return False


def mutant_order(name: str) -> tuple[str, int]:
    function, _, number = name.rpartition("__mutmut_")
    return function, int(number)


def one_line_change(module: str, name: str) -> str:
    """`line N: old -> new` for a mutant, read back from mutmut's mutated file."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    diff = get_diff_for_mutant(name, path=module).splitlines()[2:]
    removed = " / ".join(line[1:].strip() for line in diff if line.startswith("-"))
    added = " / ".join(line[1:].strip() for line in diff if line.startswith("+"))
    return f"line {source_line(module, name, removed)}: {removed}  ->  {added}"


def source_line(module: str, name: str, removed: str) -> int | str:
    """Where the mutated line is in the original file (searched from its function's start)."""
    function = name.rpartition("__mutmut_")[0].rpartition(".")[2]
    function = function.split("ǁ")[-1].removeprefix("x_")
    source = (ROOT / module).read_text()
    start = next((node.lineno for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.name == function), 1)
    first = removed.split(" / ")[0]
    for number, line in enumerate(source.splitlines()[start - 1:], start):
        if first and line.strip() == first:
            return number
    return "?"


def report(modules: list[str], equivalent: dict[str, dict[str, str]], wall: float) -> bool:
    """Print the table and the survivors; whether every module reached 90 %."""
    tallies = {}
    for module in modules:
        enter_workspace(module)
        tallies[module] = tally(module, equivalent)
    print(f"\n{'module':<40} {'mutants':>7} {'killed':>6} {'surv.':>5} {'t/out':>5} "
          f"{'none':>4} {'equiv':>5} {'rate':>6}")
    for module, counts in tallies.items():
        c = counts.counts
        print(f"{module.removeprefix('parlour/'):<40} {sum(c.values()):>7} {c['killed']:>6} "
              f"{c['survived']:>5} {c['timeout']:>5} {c['no tests']:>4} "
              f"{len(counts.equivalent):>5} {counts.kill_rate:>6.1%}")
    for module, counts in tallies.items():
        enter_workspace(module)
        stale = [name for name in counts.equivalent
                 if equivalent[name]["change"] != one_line_change(module, name).split(": ", 1)[1]]
        if not (counts.survivors or counts.untested or stale):
            continue
        print(f"\n{module}")
        for name in counts.survivors + counts.untested:
            untested = " (no test calls it)" if name in counts.untested else ""
            print(f"  {name.rpartition('.')[2]}{untested}  {one_line_change(module, name)}")
        for name in stale:
            print(f"  {name.rpartition('.')[2]} is listed as equivalent but now reads "
                  f"{one_line_change(module, name)}")
    print(f"\nwall time {wall / 60:.1f} min")
    return all(counts.kill_rate >= 0.9 for counts in tallies.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--set", dest="sets", nargs="+", choices=sorted(SETS),
                        default=list(SETS), help="the sets of modules to mutate (default: all)")
    parser.add_argument("--modules", nargs="+", choices=sorted(COVERING_TESTS), metavar="PATH",
                        help="mutate these modules instead")
    parser.add_argument("--quick", action="store_true",
                        help="keep the last results; try again only the mutants not killed")
    parser.add_argument("--report", action="store_true",
                        help="only print the last run's results")
    args = parser.parse_args()
    modules = args.modules or [module for name in args.sets for module in SETS[name]]
    equivalent = load_equivalent()
    started = time.monotonic()
    if not args.report:
        for module in modules:
            use_workspace(workspace_name(module))
            began = time.monotonic()
            run([module], equivalent, args.quick)
            print(f"{module}: {(time.monotonic() - began) / 60:.1f} min")
    if not report(modules, equivalent, time.monotonic() - started):
        sys.exit(1)


def workspace_name(module: str) -> str:
    """Each module is mutated in a workspace of its own, so that its mutants meet only its
    own covering tests (in one run, mutmut would run each against every test of the run
    that calls its function: a session's mutants against every game's API tests)."""
    return module.removeprefix("parlour/").removesuffix(".py").replace("/", ".")


def enter_workspace(module: str) -> None:
    use_workspace(workspace_name(module))
    os.chdir(WORKSPACE)  # mutmut reads its mutated files from here


def use_workspace(name: str) -> None:
    global WORKSPACE
    WORKSPACE = RESULTS / name


def run(modules: list[str], equivalent: dict[str, dict[str, str]], quick: bool) -> None:
    """A fresh run, or with `quick` one that keeps what the last run killed. Mutants listed
    as equivalent are not tried: each would run every test that calls its function."""
    quick = quick and bool(mutant_exit_codes(modules[0]))  # else there is nothing to keep
    prepare_workspace(modules, quick)
    log = WORKSPACE / "mutmut.log"
    log.unlink(missing_ok=True)
    print(f"mutmut: {len(modules)} modules, {WORKERS} workers; its output goes to {log}")
    if not quick:  # mutmut makes every mutant and maps the tests while it tries the first few
        mutmut_or_exit([FIRST_OF_EACH_FUNCTION], log)
    for module in modules:
        set_results(module, equivalent, kept=(lambda code: code in KILLED) if quick
                    else (lambda code: True))
    mutmut_or_exit([], log)  # every mutant without a result


KILLED = (1, 3, 24, -24, 36, 152, 255)
"""mutmut's exit codes of a mutant killed: a test failed, pytest failed, or it timed out."""
SKIPPED = 34
FIRST_OF_EACH_FUNCTION = "*__mutmut_1"


def set_results(module: str, equivalent: dict[str, dict[str, str]],
                kept: Callable[[int | None], bool]) -> None:
    """Mark the mutants listed as equivalent (while they make the change listed) skipped,
    and forget the results `kept` refuses, so that mutmut tries those mutants again."""
    os.chdir(WORKSPACE)  # mutmut reads its mutated files from here
    meta = WORKSPACE / "mutants" / f"{module}.meta"
    data = json.loads(meta.read_text())
    codes: dict[str, int | None] = data["exit_code_by_key"]
    for name, code in codes.items():
        if name in equivalent and still_the_same(module, name, equivalent[name]["change"]):
            codes[name] = SKIPPED
        elif not kept(code):
            codes[name] = None
    meta.write_text(json.dumps(data, indent=4))


def mutmut_or_exit(names: list[str], log: Path) -> None:
    code = run_mutmut(names, log)
    if code:
        sys.exit(f"mutmut failed (exit code {code}); see {log}")


if __name__ == "__main__":
    main()
