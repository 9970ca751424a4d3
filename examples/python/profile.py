"""Edit an agent's profile (no model) and take the block for its cached system prompt."""

import sys

from memoryd.client import Aborted, MemoryClient

target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"

with MemoryClient(target, tenant="acme") as memory:
    try:
        updated = memory.edit_profile("assistant", "- Caroline takes her espresso black", section="Preferences")
    except Aborted:  # another edit landed between the read of the revision and this one: read again
        updated = memory.edit_profile("assistant", "- Caroline takes her espresso black", section="Preferences")
    system_prompt_prefix = updated.prompt_block  # byte-stable until the next revision
    print(f"revision {updated.revision}, {updated.token_count} tokens")
    print(system_prompt_prefix)
