"""Benchmarks, load test and Lighthouse runner (make bench, make loadtest, make lighthouse)."""
