"""Progress reports: passed on to whoever listens, at most ten a second, else nowhere."""

from __future__ import annotations

import time

from parlour.core import progress

Reports = list[tuple[float | None, str]]


def test_outside_a_job_a_report_goes_nowhere() -> None:
    progress.report(0.5, "nobody listens")
    with progress.doing("nobody listens either"):
        progress.report(None)


def test_reports_reach_the_listener_until_the_block_ends() -> None:
    heard: Reports = []
    with progress.listening(lambda *report: heard.append(report)):
        progress.report(0.5, "half")
    progress.report(0.75, "after")
    assert heard == [(0.5, "half")]


def test_at_most_ten_reports_a_second_but_a_new_note_at_once() -> None:
    heard: Reports = []
    with progress.listening(lambda *report: heard.append(report)):
        for step in range(1000):
            progress.report(step / 1000, "counting")
        progress.report(1.0, "checking")
        time.sleep(progress.MIN_INTERVAL)
        progress.report(None, "checking")
    assert heard == [(0.0, "counting"), (1.0, "checking"), (None, "checking")]


def test_done_is_kept_between_nothing_and_all() -> None:
    heard: Reports = []
    with progress.listening(lambda *report: heard.append(report)):
        progress.report(-0.5, "a")
        progress.report(1.5, "b")
    assert heard == [(0.0, "a"), (1.0, "b")]


def test_doing_names_the_work_for_reports_without_a_note() -> None:
    heard: Reports = []
    with progress.listening(lambda *report: heard.append(report)):
        with progress.doing("Building"):
            time.sleep(progress.MIN_INTERVAL)
            progress.report(0.5)
            progress.report(0.6, "its own note")
        progress.report(0.7)
    assert heard == [(None, "Building"), (0.5, "Building"), (0.6, "its own note"), (0.7, "")]


def test_an_inner_listener_hides_the_outer_one_for_its_block() -> None:
    outer: Reports = []
    inner: Reports = []
    with progress.listening(lambda *report: outer.append(report)):
        with progress.listening(lambda *report: inner.append(report)):
            progress.report(0.5, "inner")
        progress.report(0.5, "outer")
    assert inner == [(0.5, "inner")]
    assert outer == [(0.5, "outer")]
