"""Settings per tenant and per agent, and what an agent runs with."""

import sys

from memoryd.client import MemoryClient

target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"

with MemoryClient(target, tenant="acme") as memory:
    memory.set_config("", {"working.auto_recall": False, "recall.limit": 5})  # the tenant level
    memory.set_config("assistant", {"working.strategy": "summary_buffer", "recall.min_score": 0.3})
    for key, (value, level) in sorted(memory.effective_config("assistant").items()):
        print(f"{key:32} {value!s:16} {level}")  # e.g. recall.limit  5  tenant
