"""Benchmarks: every speed or quality claim memoryd makes comes from here."""
