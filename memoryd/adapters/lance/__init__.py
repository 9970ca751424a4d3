"""The LanceDB wing: every store memoryd keeps, on one LanceDB database per process.

``db`` is the connection and table registry; one module per store (``archive``, ``agents``,
``conversations``, ``profiles``, ``reviews``, ``graph``, ``keys``, ``audit_log``,
``agent_config``, ``export``, ``spaces``); ``maintenance``, ``purge`` and ``orphans`` keep the
tables compact and take deleted rows off the disk; ``copies`` holds small tables in memory.
"""
