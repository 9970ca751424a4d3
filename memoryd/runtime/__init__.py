"""How a memoryd process runs: allocator and thread limits, busy poll, heap release, tracing, logs.

The background loops of the daemon (write-behind, maintenance) live here too.
"""
