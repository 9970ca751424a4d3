"""Every way in from the command line: ``memoryd`` and its subcommands, each a thin shell over the app.

``main`` parses and dispatches; ``up`` supervises the embedded stack; ``keys``, ``data``,
``reembed``, ``audit``, ``bootstrap``, ``reports`` and ``demo`` are one command each; ``bench``
holds the benchmarks; ``table`` formats their output.
"""
