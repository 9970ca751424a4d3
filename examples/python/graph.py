"""Assert a dated fact about a contact and search the memory graph as the agent sees it."""

import sys
from datetime import UTC, datetime

from memoryd.client import MemoryClient, pb

target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"
october = datetime(2026, 10, 1, tzinfo=UTC)

with MemoryClient(target, tenant="acme") as memory:
    memory.graph.assert_fact(  # the admin role (a loopback daemon without keys grants it)
        "Acme",
        "billing_contact",
        "Omar",
        "Omar handles billing at Acme from October.",
        valid_from=october,
        scope=pb.SCOPE_END_USER,
        end_user_id="contact-7",
    )
    answer = memory.graph.search("assistant", "who handles billing at Acme", end_user_id="contact-7")
    print(answer.block)  # # Memory graph (as of …)\n- [since 2026-10-01] Omar handles billing at Acme from October.
