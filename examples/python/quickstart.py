"""Store a memory, recall it, list the agent's memories."""

import sys

from memoryd.client import MemoryClient

target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"  # where `make run` listens

with MemoryClient(target, tenant="acme") as memory:  # api_key="mdk_..." once keys exist (it names the tenant)
    memory.memorize("assistant", "Caroline prefers espresso in the morning", tags=["preferences"])
    for hit in memory.recall("assistant", "What does Caroline drink?", min_score=0.3):
        print(round(hit.score, 2), hit.memory.content)
    for m in memory.list("assistant"):  # every page, oldest first
        print(m.id, m.content)
