"""Benchmarks: `make bench` runs every module of this package that defines ``run()``."""
