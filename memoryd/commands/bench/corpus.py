"""Synthetic but realistic memories: templated sentences, clustered real embeddings.

Embedding 100k+ texts with the CPU embedder would take longer than the
benchmark itself, so a few hundred *base* sentences are embedded for real and
each memory is a variation of one base (different details in the text, its
base vector plus small Gaussian noise). Texts share vocabulary the way
conversation turns do; vectors cluster the way real embeddings of a topic do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

NAMES = [
    "Caroline",
    "Melanie",
    "Jon",
    "Gina",
    "Sam",
    "Priya",
    "Luis",
    "Aiko",
    "Omar",
    "Nora",
    "Tess",
    "Ivan",
    "Maya",
    "Theo",
    "Zara",
    "Felix",
    "Hana",
    "Owen",
    "Lena",
    "Ravi",
]
ACTIVITIES = [
    "went hiking in the mountains",
    "started a pottery class",
    "adopted a rescue dog",
    "painted a sunset over the lake",
    "ran a half marathon",
    "visited a jazz club downtown",
    "planted tomatoes in the garden",
    "signed up for a cooking course",
    "joined a support group",
    "bought a used camper van",
    "learned to play the violin",
    "volunteered at the animal shelter",
    "opened a small bakery",
    "took the kids to the aquarium",
    "went camping by the river",
    "read a novel about time travel",
    "fixed the old bicycle",
    "started a book club",
    "tried rock climbing for the first time",
    "organised a charity bake sale",
    "moved to a new apartment",
    "got promoted at work",
    "booked a trip to Japan",
    "repaired the kitchen sink",
    "watched a meteor shower",
    "built a treehouse",
]
DETAILS = [
    "last weekend",
    "on Tuesday",
    "with their sister",
    "after work",
    "in the rain",
    "for the first time",
    "with old friends",
    "despite the cold",
    "early in the morning",
    "to celebrate a birthday",
    "and loved it",
    "and felt nervous",
    "with a colleague",
    "near the coast",
    "during the holidays",
]


@dataclass(frozen=True)
class Corpus:
    """Texts, unit vectors (float32) and owning agent per memory, plus the base sentences."""

    texts: list[str]
    vectors: np.ndarray
    bases: list[str]
    base_of: list[int]


def base_sentences(count: int, seed: int = 1) -> list[str]:
    """Distinct base sentences (a person, an activity, a circumstance)."""
    rng = random.Random(seed)
    triples = [(n, a, d) for n in NAMES for a in ACTIVITIES for d in DETAILS]
    rng.shuffle(triples)
    return [f"{n} {a} {d}" for n, a, d in triples[:count]]


def build(count: int, base_vectors: np.ndarray, bases: list[str], noise: float = 0.06, seed: int = 2) -> Corpus:
    """``count`` memories spread over the bases; vectors are base vectors plus noise."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    base_of = [rng.randrange(len(bases)) for _ in range(count)]
    texts = [f"{bases[b]}, {rng.choice(DETAILS)} (note {i})" for i, b in enumerate(base_of)]
    vectors = base_vectors[base_of] + nrng.normal(0.0, noise, (count, base_vectors.shape[1])).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return Corpus(texts, vectors.astype(np.float32), bases, base_of)


def questions(bases: list[str], count: int, seed: int = 3) -> list[str]:
    """Questions about base sentences, worded as users ask them."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        name, _, rest = rng.choice(bases).partition(" ")
        activity = next((a for a in ACTIVITIES if rest.startswith(a)), rest)
        words = activity.split()
        out.append(
            rng.choice(
                [
                    f"When did {name} {' '.join(words[:3])}?",
                    f"What did {name} do {rng.choice(DETAILS)}?",
                    f"Who {activity}?",
                    f"{name} {' '.join(words[1:])}",
                ]
            )
        )
    return out
