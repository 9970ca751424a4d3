"""The console's pages, one module per view; each lists its routes in ``routes(console)``."""
