"""LoCoMo in memoryd's terms: conversations of turns (one memory each) and questions with evidence.

Only the file format is assumed (the public ``locomo10.json`` layout); the path
is always given on the command line. Evidence ids in the data set have quirks
that are normalised here: several ids in one string (``"D8:6; D9:17"``,
``"D9:1 D4:4"``), a stray colon (``"D:11:26"``), zero padding (``"D30:05"``),
and ids of turns that do not exist (dropped). Questions left without evidence
and category 5 (adversarial, unanswerable by design) are not asked.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memoryd.config.errors import ConfigError

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")
_SESSION = re.compile(r"session_(\d+)$")


@dataclass(frozen=True)
class Turn:
    """One dialog turn, stored as one memory."""

    dia_id: str
    content: str
    """What is stored: ``speaker: text`` (and the image caption, when the turn shared one)."""
    occurred_at: datetime | None
    """The session's date and time."""
    speaker: str = ""
    text: str = ""
    position: int = 0
    """The turn's index within its session."""


@dataclass(frozen=True)
class Question:
    """One question and the turns that answer it."""

    text: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Conversation:
    """One LoCoMo sample."""

    sample_id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]


def clean_evidence(raw: list[Any], known: set[str]) -> tuple[str, ...]:
    """Normalised, de-duplicated evidence ids that name real turns."""
    out: list[str] = []
    for item in raw:
        for match in _EVIDENCE.finditer(str(item)):
            dia_id = f"D{int(match.group(1))}:{int(match.group(2))}"
            if dia_id in known and dia_id not in out:
                out.append(dia_id)
    return tuple(out)


def _session_time(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        return None


def _turn_text(turn: dict[str, Any]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [shares an image: {turn['blip_caption']}]"
    return text


def load(path: Path) -> list[Conversation]:
    """Conversations with their turns in session order and their answerable questions."""
    return parse(read(path), str(path))


def parse(samples: list[dict[str, Any]], source: str = "the data", first: int = 1) -> list[Conversation]:
    """``load`` on data already read (the demo's shipped conversation is in this format too).

    A sample not in LoCoMo's format is a ConfigError naming ``source``, the sample (numbered from
    ``first``) and the key it lacks.
    """
    out = []
    for index, sample in enumerate(samples, start=first):
        try:
            out.append(_conversation(index, sample))
        except KeyError as exc:
            raise ConfigError(f"{source}: sample {index}: no {exc.args[0]!r} (not LoCoMo's format)") from None
        except (TypeError, AttributeError, ValueError) as exc:
            raise ConfigError(f"{source}: sample {index}: not LoCoMo's format ({exc})") from None
    return out


def read(path: Path) -> list[dict[str, Any]]:
    """A LoCoMo file's samples, as JSON; a ConfigError naming the file when it is not JSON or not a list."""
    try:
        samples = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(samples, list):
        raise ConfigError(f"{path}: not LoCoMo's format: a list of samples is wanted")
    return samples


def _conversation(index: int, sample: dict[str, Any]) -> Conversation:
    conv = sample["conversation"]
    sessions = sorted((int(m.group(1)), key) for key in conv if (m := _SESSION.match(key)))
    turns = [
        Turn(
            _normal_id(t["dia_id"]),
            _turn_text(t),
            _session_time(conv.get(f"{key}_date_time")),
            t["speaker"],
            t["text"],
            position,
        )
        for _, key in sessions
        for position, t in enumerate(conv[key])
    ]
    known = {t.dia_id for t in turns}
    questions = []
    for qa in sample.get("qa", []):
        evidence = clean_evidence(qa.get("evidence", []), known)
        if qa["category"] in CATEGORIES and evidence:
            questions.append(Question(qa["question"], qa["category"], evidence))
    return Conversation(str(sample.get("sample_id", index)), tuple(turns), tuple(questions))


def _normal_id(dia_id: str) -> str:
    match = _EVIDENCE.search(dia_id)
    return f"D{int(match.group(1))}:{int(match.group(2))}" if match else dia_id


@dataclass
class Scores:
    """Running sums of the retrieval metrics."""

    n: int = 0
    r5: float = 0.0
    r10: float = 0.0
    hit10: float = 0.0
    mrr: float = 0.0

    def add(self, ranked: list[str], evidence: tuple[str, ...]) -> None:
        """Score one question: ranked dia ids (best first) against its evidence."""
        wanted = set(evidence)
        self.n += 1
        self.r5 += len(wanted & set(ranked[:5])) / len(wanted)
        self.r10 += len(wanted & set(ranked[:10])) / len(wanted)
        self.hit10 += 1.0 if wanted & set(ranked[:10]) else 0.0
        first = next((i for i, d in enumerate(ranked, start=1) if d in wanted), 0)
        self.mrr += 1.0 / first if first else 0.0

    def means(self) -> dict[str, float]:
        """Averages over the questions scored."""
        n = self.n or 1
        return {"n": self.n, "R@5": self.r5 / n, "R@10": self.r10 / n, "hit@10": self.hit10 / n, "MRR@10": self.mrr / n}
