"""`memoryd console`: a web page for the people who run memoryd, a client of the daemon over gRPC.

Server-rendered pages (Starlette, Jinja2 with autoescaping), assets served from the package, no
network. Every action goes through the daemon's validation, roles, rate limits and event log with
the signed-in key; the console never opens the store. ``web`` is the HTTP shell (sessions, CSRF,
security headers), ``pages`` one module per view, ``command`` the command line.
"""
