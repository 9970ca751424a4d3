"""Adapters: each implements core ports on one vendor library and maps its errors."""
