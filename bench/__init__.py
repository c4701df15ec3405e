"""Benchmarks behind `make bench`: each module's run() returns rows printed as JSON lines."""
