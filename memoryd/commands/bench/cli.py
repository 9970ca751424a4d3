"""`memoryd bench ...` subcommands."""

from __future__ import annotations

import argparse

from memoryd.commands.arg_types import output_file
from memoryd.commands.bench.adversarial import register as register_adversarial
from memoryd.commands.bench.audit_bench import register as register_audit
from memoryd.commands.bench.autorecall_bench import register as register_autorecall
from memoryd.commands.bench.calibrate_bench import register as register_calibrate
from memoryd.commands.bench.compare_bench import register as register_compare
from memoryd.commands.bench.console_bench import register as register_console
from memoryd.commands.bench.dedup_bench import register as register_dedup
from memoryd.commands.bench.faults_bench import register as register_faults
from memoryd.commands.bench.graph_bench import register as register_graph
from memoryd.commands.bench.jobs_bench import register as register_jobs
from memoryd.commands.bench.locomo_bench import register as register_locomo
from memoryd.commands.bench.mixed_bench import register as register_mixed
from memoryd.commands.bench.multilingual_bench import register as register_multilingual
from memoryd.commands.bench.names_bench import register as register_names
from memoryd.commands.bench.outage_bench import register as register_outage
from memoryd.commands.bench.paired_bench import register as register_paired
from memoryd.commands.bench.pii_bench import register as register_pii
from memoryd.commands.bench.recall_bench import register as register_recall
from memoryd.commands.bench.reembed_bench import register as register_reembed
from memoryd.commands.bench.valkey_bench import register as register_valkey
from memoryd.commands.bench.writes_bench import register as register_writes


def add_bench_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the bench subcommands."""
    register_recall(sub)
    register_locomo(sub)
    register_multilingual(sub)
    register_autorecall(sub)
    register_jobs(sub)
    register_dedup(sub)
    register_names(sub)
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
    register_console(sub)
    register_compare(sub)
    register_paired(sub)
    for bench in sub.choices.values():  # every bench writes its figures with the environment and commit
        bench.add_argument("--json", type=output_file, help="write the JSON record here")
