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


@dataclass(frozen=True, slots=True)
class SummaryOutput:
    """A stretch's summary and, when asked for, the merge of older summaries."""

    summary: str
    compressed: str


@dataclass(frozen=True, slots=True)
class ExtractedMemory:
    """One archive memory proposed by the maintenance call."""

    content: str
    memory_type: str


@dataclass(frozen=True, slots=True)
class MaintenanceOutput:
    """The fused maintenance call: archive memories to add and the rewritten profile."""

    memories: tuple[ExtractedMemory, ...]
    profile: ProfileProposal | None


MAX_EXTRACTED = 100


def summary_output(answer: Mapping[str, object], want_compressed: bool) -> SummaryOutput:
    """``{"summary": str, "compressed": str}`` (compressed required only when asked for)."""
    summary = answer.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        raise ModelOutputInvalid("model answer has no non-empty string 'summary'")
    compressed = answer.get("compressed", "")
    if want_compressed and (not isinstance(compressed, str) or not compressed.strip()):
        raise ModelOutputInvalid("model answer has no non-empty string 'compressed'")
    return SummaryOutput(summary.strip(), compressed.strip() if isinstance(compressed, str) else "")


def maintenance_output(answer: Mapping[str, object]) -> MaintenanceOutput:
    """``{"memories": [{"content", "memory_type"}], "profile": str, "demoted": [str]}``.

    ``profile`` may be absent (no change to the profile); memory types other than
    episodic/semantic are refused.
    """
    raw = answer.get("memories", [])
    if not isinstance(raw, list) or len(raw) > MAX_EXTRACTED:
        raise ModelOutputInvalid(f"model answer's 'memories' is not a list of at most {MAX_EXTRACTED}")
    memories = []
    for i, item in enumerate(raw):
        content = item.get("content") if isinstance(item, dict) else None
        kind = item.get("memory_type", "semantic") if isinstance(item, dict) else None
        if not isinstance(content, str) or not content.strip():
            raise ModelOutputInvalid(f"model answer's memories[{i}] has no non-empty 'content'")
        if kind not in ("episodic", "semantic"):
            raise ModelOutputInvalid(f"model answer's memories[{i}].memory_type must be episodic or semantic")
        memories.append(ExtractedMemory(content.strip(), kind))
    profile = profile_proposal(answer) if "profile" in answer else None
    return MaintenanceOutput(tuple(memories), profile)
