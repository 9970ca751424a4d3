"""`memoryd report`: a tenant's usage report as a table, JSON, or a self-contained HTML page."""
