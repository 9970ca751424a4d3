"""Scores you can threshold: every hit's score lies in [0, 1] and means the same for every query."""

import sys

from memoryd.client import MemoryClient

target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"

with MemoryClient(target, tenant="acme") as memory:
    memory.memorize("assistant", "Caroline drinks a double espresso every morning")
    for hit in memory.recall("assistant", "What does Caroline drink?", min_score=0.5):  # only real evidence
        print(round(hit.score, 2), hit.memory.content, f"(cosine {hit.parts.vector_similarity:.2f})")
