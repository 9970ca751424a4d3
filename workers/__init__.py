"""arq workers: thin job functions over the App services, run by ``memoryd worker``.

``workers.functions`` holds one function per job kind (each a shell around
``JobRunner.run`` and a service body); ``workers.settings`` builds the two arq
workers (model-bound and short queues) from memoryd's Settings;
``workers.run`` runs them in one process, sharing one App.
"""
