"""The Redis (Valkey) wing: the job ledger, the provider gate, leases and rate budgets."""
