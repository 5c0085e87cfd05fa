"""Helpers for tests/test_build.py and bench/bench_build.py: local HTTP servers, Chromium."""
