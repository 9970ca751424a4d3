"""In-memory copies: a tenant's small tables held in memory at one version and answered from there.

``cache`` bounds and ties the copies to the table versions they were read at; ``archive`` is the
memories table's (both Recall arms, fetches, pages), ``text`` its full-text part, ``faiss_rows`` its
IVF index, ``stats`` the retrieval statistics', ``keyed`` a small keyed table's (profiles,
conversation states), ``facts`` the graph's.
"""
