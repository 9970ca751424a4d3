"""Adapters: each implements core ports on one vendor library and maps its errors."""

from memoryd.adapters.lance.preload import import_lancedb

import_lancedb()  # before any adapter module imports lancedb (see lance_import)
