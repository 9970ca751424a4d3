"""Queue a background job (a profile regeneration) and follow it."""

import sys

from memoryd.client import MemoryClient

target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"

with MemoryClient(target, tenant="acme") as memory:
    job_id = memory.regenerate_profile("assistant")
    for update in memory.jobs.watch(job_id, timeout=10):  # until it settles, or 10 s
        print(update.state, update.message)  # queued → running → succeeded (or retrying / failed / dead)
    state = memory.jobs.state(job_id)
    if state in ("queued", "waiting_for_provider"):  # a job needs a worker, a regeneration a model too
        print(f"{job_id} is still {state}: `memoryd up` runs a worker; [provider] names the model")
