"""Clients of the daemon that speak another protocol to their users (MCP; the console's HTTP).

Each calls the daemon over gRPC, so every action gets its validation, roles, limits and audit log.
"""
