"""Operator commands that work on the store directly: ``memoryd keys``, ``export``, ``import``, ``erase``.

They open the store the way the daemon does (local access to the data is the root of trust: the
first key of a deployment is made here) and print plain tables.
"""
