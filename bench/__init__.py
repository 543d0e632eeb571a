"""Benchmarks of duizhao (not timed tests): corpus generator and runner."""
