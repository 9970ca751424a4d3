"""The full-text arm in other scripts: Chinese by character pairs, accented Latin folded, through LanceDB."""

from __future__ import annotations

from memoryd.app import App
from memoryd.core.models import Actor, MemoryDraft, RecallArms, RecallQuery

ME = Actor("acme", "a1", "u1")
MEMORIES = [
    "王芳上个月从北京搬到了杭州，在西湖附近租了一套两居室。",
    "李明在深圳的一家新能源汽车公司做产品经理。",
    "我们家的狗叫豆豆，是一只柯基。",
    "Mi hermana Lucía trabaja como enfermera en Málaga.",
    "Wir wohnen seit März in der Schloßstraße.",
    "The standup moved to 9:30 on Tuesdays.",
]


async def full_text_first(app: App, question: str) -> str:
    hits = await app.memory.recall.recall(RecallQuery(ME, question, limit=3, arms=RecallArms.FULL_TEXT))
    assert hits, question
    return hits[0].memory.content


async def test_chinese_questions_and_unaccented_words_find_their_memories_by_full_text(app: App) -> None:
    await app.memory.memorize.memorize_batch(ME, [MemoryDraft(m) for m in MEMORIES], skip_deduplication=False)
    assert await full_text_first(app, "王芳现在住在哪个城市？") == MEMORIES[0]
    assert await full_text_first(app, "李明的公司在哪里？") == MEMORIES[1]
    assert await full_text_first(app, "豆豆是什么狗") == MEMORIES[2]
    assert await full_text_first(app, "¿Quién vive en Malaga?") == MEMORIES[3]
    assert await full_text_first(app, "Schlossstrasse") == MEMORIES[4]
    assert await full_text_first(app, "when is the standup") == MEMORIES[5]
