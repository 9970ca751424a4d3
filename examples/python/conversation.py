"""Append a conversation's turns and get the context to send the model."""

import sys

from memoryd.client import MemoryClient

target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"

with MemoryClient(target, tenant="acme") as memory:
    memory.conversations.append(
        "assistant",
        "chat-42",
        [("m1", "user", "I'm vegetarian, by the way."), ("m2", "assistant", "Noted: no meat in the suggestions.")],
        context_window_tokens=8192,
    )
    context = memory.conversations.context("assistant", "chat-42", 8192)
    for m in context.messages:  # profile, dated summaries, kept raw messages, recalled memories — in order
        print(m.kind, m.token_count, m.content)
    print("total tokens:", context.total_tokens)
