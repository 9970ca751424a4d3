"""Validation of model answers before anything is written. Pure.

A model-bound job asks for one JSON object; these functions accept it only in
the documented shape and raise ModelOutputInvalid naming what is wrong, so a bad
answer fails the job without touching the profile or the archive.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from memoryd.core.errors import ModelOutputInvalid

MAX_DEMOTED = 200


@dataclass(frozen=True, slots=True)
class ProfileProposal:
    """A rewritten profile and the lines it demotes into the archive."""

    profile: str
    demoted: tuple[str, ...]


def profile_proposal(answer: Mapping[str, object]) -> ProfileProposal:
    """``{"profile": str, "demoted": [str, ...]}`` (demoted optional)."""
    profile = answer.get("profile")
    if not isinstance(profile, str) or not profile.strip():
        raise ModelOutputInvalid("model answer has no non-empty string 'profile'")
    demoted = answer.get("demoted", [])
    if not isinstance(demoted, list) or not all(isinstance(line, str) for line in demoted):
        raise ModelOutputInvalid("model answer's 'demoted' is not a list of strings")
    if len(demoted) > MAX_DEMOTED:
        raise ModelOutputInvalid(f"model answer demotes {len(demoted)} lines; at most {MAX_DEMOTED}")
    return ProfileProposal(profile, tuple(line for line in demoted if line.strip()))
