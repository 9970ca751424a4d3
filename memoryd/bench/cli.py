"""`memoryd bench ...` subcommands."""

from __future__ import annotations

import argparse

from memoryd.bench.adversarial import register as register_adversarial
from memoryd.bench.audit_bench import register as register_audit
from memoryd.bench.calibrate_bench import register as register_calibrate
from memoryd.bench.dedup_bench import register as register_dedup
from memoryd.bench.faults_bench import register as register_faults
from memoryd.bench.graph_bench import register as register_graph
from memoryd.bench.jobs_bench import register as register_jobs
from memoryd.bench.locomo_bench import register as register_locomo
from memoryd.bench.mixed_bench import register as register_mixed
from memoryd.bench.outage_bench import register as register_outage
from memoryd.bench.pii_bench import register as register_pii
from memoryd.bench.recall_bench import register as register_recall
from memoryd.bench.reembed_bench import register as register_reembed
from memoryd.bench.valkey_bench import register as register_valkey
from memoryd.bench.writes_bench import register as register_writes


def add_bench_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the bench subcommands."""
    register_recall(sub)
    register_locomo(sub)
    register_jobs(sub)
    register_dedup(sub)
    register_mixed(sub)
    register_audit(sub)
    register_pii(sub)
    register_adversarial(sub)
    register_calibrate(sub)
    register_faults(sub)
    register_valkey(sub)
    register_reembed(sub)
    register_graph(sub)
    register_outage(sub)
    register_writes(sub)
