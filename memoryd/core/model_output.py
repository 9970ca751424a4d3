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
    subject: str = ""
    salience: float | None = None
    supersedes: str = ""
    """The label of a shown memory this one corrects (the old one is superseded, not deleted)."""
    restates: str = ""
    """The label of a shown memory this one says again (merged into it when it adds nothing)."""


@dataclass(frozen=True, slots=True)
class MaintenanceOutput:
    """The fused maintenance call: archive memories to add and the rewritten profile."""

    memories: tuple[ExtractedMemory, ...]
    profile: ProfileProposal | None


MAX_EXTRACTED = 100
MAX_SUBJECT = 200


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
    """``{"memories": [{"content", "memory_type", "subject", "salience", "supersedes" | "restates"}], ...}``.

    Beside ``memories``: ``profile`` and ``demoted``.
    ``profile`` may be absent (no change to the profile); memory types other than episodic/semantic,
    a salience outside 0-1 and a memory both superseding and restating are refused. Labels are not
    checked here: one the call was not shown is ignored (and counted) when the answer is applied.
    """
    raw = answer.get("memories", [])
    if not isinstance(raw, list) or len(raw) > MAX_EXTRACTED:
        raise ModelOutputInvalid(f"model answer's 'memories' is not a list of at most {MAX_EXTRACTED}")
    memories = [_extracted(item, i) for i, item in enumerate(raw)]
    profile = profile_proposal(answer) if "profile" in answer else None
    return MaintenanceOutput(tuple(memories), profile)


def _extracted(item: object, i: int) -> ExtractedMemory:
    if not isinstance(item, Mapping):
        raise ModelOutputInvalid(f"model answer's memories[{i}] is not an object")
    content, kind = item.get("content"), item.get("memory_type", "semantic")
    if not isinstance(content, str) or not content.strip():
        raise ModelOutputInvalid(f"model answer's memories[{i}] has no non-empty 'content'")
    if kind not in ("episodic", "semantic"):
        raise ModelOutputInvalid(f"model answer's memories[{i}].memory_type must be episodic or semantic")
    subject, salience = item.get("subject", ""), item.get("salience")
    if not isinstance(subject, str) or len(subject) > MAX_SUBJECT:
        raise ModelOutputInvalid(f"model answer's memories[{i}].subject must be a string of at most {MAX_SUBJECT}")
    if salience is not None and (
        isinstance(salience, bool) or not isinstance(salience, int | float) or not 0 <= salience <= 1
    ):
        raise ModelOutputInvalid(f"model answer's memories[{i}].salience must be a number from 0 to 1")
    links = {}
    for name in ("supersedes", "restates"):
        value = item.get(name) or ""
        if not isinstance(value, str):
            raise ModelOutputInvalid(f"model answer's memories[{i}].{name} must be a memory label")
        links[name] = value.strip()
    if links["supersedes"] and links["restates"]:
        raise ModelOutputInvalid(f"model answer's memories[{i}] both supersedes and restates a memory")
    return ExtractedMemory(
        content.strip(),
        kind,
        subject.strip(),
        None if salience is None else float(salience),
        links["supersedes"],
        links["restates"],
    )


MAX_VERDICT_TEXT = 4096


@dataclass(frozen=True, slots=True)
class Verdict:
    """The model's judgement of one finding."""

    confirm: bool
    action: str
    survivor_id: str
    memory_id: str
    text: str


_ACTIONS = frozenset({"merge", "update", "archive", "keep"})


def review_verdicts(answer: Mapping[str, object], asked: Mapping[str, tuple[str, ...]]) -> dict[str, Verdict]:
    """``{"verdicts": [...]}`` with exactly one valid verdict per asked finding (finding id -> its memory ids)."""
    raw = answer.get("verdicts")
    if not isinstance(raw, list):
        raise ModelOutputInvalid("model answer has no list 'verdicts'")
    out: dict[str, Verdict] = {}
    for item in raw:
        if not isinstance(item, Mapping):
            raise ModelOutputInvalid("a verdict is not an object")
        finding = item.get("finding_id")
        if not isinstance(finding, str) or finding not in asked:
            raise ModelOutputInvalid(f"a verdict names finding {finding!r}, which was not asked about")
        if finding in out:
            raise ModelOutputInvalid(f"finding {finding!r} has two verdicts")
        out[finding] = _verdict(item, asked[finding], finding)
    missing = sorted(set(asked) - set(out))
    if missing:
        raise ModelOutputInvalid(f"no verdict for {len(missing)} finding(s), e.g. {missing[0]!r}")
    return out


def _verdict(item: Mapping[str, object], memory_ids: tuple[str, ...], finding: str) -> Verdict:
    confirm, action = item.get("confirm"), item.get("action")
    if not isinstance(confirm, bool) or action not in _ACTIONS:
        raise ModelOutputInvalid(
            f"finding {finding!r}: 'confirm' must be a boolean and 'action' one of {sorted(_ACTIONS)}"
        )
    fields = {name: item.get(name, "") or "" for name in ("survivor_id", "memory_id", "text")}
    if not all(isinstance(v, str) for v in fields.values()):
        raise ModelOutputInvalid(f"finding {finding!r}: 'survivor_id', 'memory_id' and 'text' must be strings")
    survivor, memory, text = (str(fields[n]) for n in ("survivor_id", "memory_id", "text"))
    if len(text) > MAX_VERDICT_TEXT:
        raise ModelOutputInvalid(f"finding {finding!r}: 'text' is over {MAX_VERDICT_TEXT} characters")
    if confirm and action == "merge" and survivor not in memory_ids:
        raise ModelOutputInvalid(f"finding {finding!r}: 'survivor_id' must be one of the finding's memories")
    if confirm and action == "update" and (memory not in memory_ids or not text.strip()):
        raise ModelOutputInvalid(f"finding {finding!r}: an update needs one of the finding's memories and a text")
    if memory and memory not in memory_ids:
        raise ModelOutputInvalid(f"finding {finding!r}: 'memory_id' must be one of the finding's memories")
    return Verdict(confirm, str(action), survivor, memory, text)


MAX_GRAPH_FACTS = 50


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """One memory-graph fact proposed by the extraction call (checked further before it is asserted)."""

    subject: str
    subject_type: str
    predicate: str
    object: str
    object_type: str
    fact: str
    valid_from: str
    invalidates: tuple[str, ...] = ()
    """Labels of known facts (``F1``…) the model judged this one incompatible with."""
    confidence: float | None = None
    """How sure the model is that the conversation states it, 0-1 (None: it did not say)."""


def graph_facts(answer: Mapping[str, object]) -> tuple[ExtractedFact, ...]:
    """``{"facts": [{"subject", "subject_type", "predicate", "object", "object_type", "fact", "valid_from"}]}``.

    ``subject``, ``predicate``, ``object`` and ``fact`` are required strings; the types and
    ``valid_from`` (YYYY-MM-DD) may be empty.
    """
    facts = answer.get("facts")
    if not isinstance(facts, list):
        raise ModelOutputInvalid("model answer has no list 'facts'")
    if len(facts) > MAX_GRAPH_FACTS:
        raise ModelOutputInvalid(f"model answer holds {len(facts)} facts; at most {MAX_GRAPH_FACTS}")
    out = []
    for i, item in enumerate(facts):
        if not isinstance(item, dict):
            raise ModelOutputInvalid(f"facts[{i}] is not an object")
        values = {}
        for name in ("subject", "subject_type", "predicate", "object", "object_type", "fact", "valid_from"):
            value = item.get(name, "")
            if not isinstance(value, str):
                raise ModelOutputInvalid(f"facts[{i}].{name} is not a string")
            values[name] = value.strip()
        for name in ("subject", "predicate", "object", "fact"):
            if not values[name]:
                raise ModelOutputInvalid(f"facts[{i}].{name} is empty")
        invalidates = item.get("invalidates", [])
        if not isinstance(invalidates, list) or not all(isinstance(x, str) for x in invalidates):
            raise ModelOutputInvalid(f"facts[{i}].invalidates is not a list of strings")
        confidence = item.get("confidence")
        if confidence is not None and (
            isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 <= confidence <= 1
        ):
            raise ModelOutputInvalid(f"facts[{i}].confidence must be a number from 0 to 1")
        sure = None if confidence is None else float(confidence)
        out.append(ExtractedFact(**values, invalidates=tuple(invalidates), confidence=sure))
    return tuple(out)
