from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memoryd.commands.bench import locomo
from memoryd.commands.bench.locomo import Scores, clean_evidence, load
from memoryd.config.errors import ConfigError

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "locomo_tiny.json"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (["D8:6; D9:17"], ("D8:6", "D9:17")),
        (["D9:1 D4:4 D4:6"], ("D9:1", "D4:4", "D4:6")),
        (["D:11:26"], ("D11:26",)),
        (["D30:05"], ("D30:5",)),
        (["D", "D99:1"], ()),
        (["D8:6", "D8:6"], ("D8:6",)),
    ],
)
def test_clean_evidence(raw: list[str], expected: tuple[str, ...]) -> None:
    known = {"D8:6", "D9:17", "D9:1", "D4:4", "D4:6", "D11:26", "D30:5"}
    assert clean_evidence(raw, known) == expected


def test_load_keeps_answerable_questions_and_dates_turns() -> None:
    convs = load(FIXTURE)
    first = convs[0]
    assert [t.dia_id for t in first.turns][:2] == ["D1:1", "D1:2"] and len(first.turns) == 7
    assert first.turns[0].occurred_at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert first.turns[3].content.endswith("[shares an image: a photo of a clay bowl on a wheel]")
    assert [q.category for q in first.questions] == [4, 2, 1, 3]  # category 5 and no-evidence dropped
    assert first.questions[2].evidence == ("D1:4", "D2:2") and first.questions[3].evidence == ("D2:3",)
    assert convs[1].questions[0].evidence == ("D1:1",)


def test_scores() -> None:
    s = Scores()
    s.add(["x", "a", "y", "b"], ("a", "b"))
    s.add(["z"] * 10, ("a",))
    m = s.means()
    assert m["R@5"] == pytest.approx(0.5) and m["hit@10"] == pytest.approx(0.5) and m["MRR@10"] == pytest.approx(0.25)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{not json", r"bad\.json: not JSON \(Expecting property name"),
        ('{"x": 1}', r"bad\.json: not LoCoMo's format: a list of samples is wanted"),
        ('[{"conversation": {"session_1": [{"speaker": "A"}]}}]', r"bad\.json: sample 1: no 'dia_id'"),
        ('[{"conversation": {"session_1": []}, "qa": [{"question": "Who?"}]}]', r"bad\.json: sample 1: no 'category'"),
        ('[{"conversation": {"session_1": "x"}}]', r"bad\.json: sample 1: not LoCoMo's format \(string indices"),
    ],
)
def test_a_file_not_in_locomo_format_is_one_clear_error(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ConfigError, match=said):
        locomo.load(path)
