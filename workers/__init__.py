"""arq worker entrypoint (deferred jobs): thin job functions over the App services.

The job queue arrives with the jobs layer; until then this package only
reserves its place in the dependency picture (entrypoint, beside memoryd.rpc).
"""
