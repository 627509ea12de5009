"""Tests of the sliding picture puzzle."""
