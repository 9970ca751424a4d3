"""Prompt texts for the model-bound jobs (bootstrap, maintenance). Pure strings.

Both state the routing rule verbatim (``core.routing``), and both ask for JSON
that the jobs validate before anything is written.
"""

from memoryd.core.routing import ROUTING_RULE

BOOTSTRAP_PROMPT = f"""You compile an agent's long-term profile from its archive of memories.

Routing rule: {ROUTING_RULE}
Yes: the fact belongs in the profile. No: it stays in the archive (leave it out).

Write the profile as Markdown with '## Section' headings (for example '## Preferences',
'## Current work', '## People'), one fact per line, within {{budget_tokens}} tokens.
Do not write a '## Pinned' section: it is kept as it is.

Answer with JSON: {{{{"profile": "<markdown>", "demoted": []}}}}.

Current profile:
{{profile}}

Archive:
{{memories}}
"""

_EXTRACT_STEP = """Extract archive memories worth keeping from the summary (facts, events, decisions), each with
   its subject (who or what it is about), memory_type and a salience from 0 (trivia) to 1 (vital).
   Compare each with the existing memories listed below:
   - it corrects or replaces one (a changed plan, a moved date, a new value): give that memory's
     label as "supersedes" (the old one is kept as history, not deleted);
   - it says the same as one, adding nothing: give its label as "restates";
   - otherwise it is new: give neither. Only labels listed below exist."""
_MEMORIES_FIELD = """"memories": [{{"content": "...", "memory_type": "episodic|semantic", "subject": "...",
"salience": 0.5, "supersedes": "<label or empty>", "restates": "<label or empty>"}}]"""

MAINTENANCE_PROMPT = f"""You maintain an agent's memory after a stretch of conversation was summarised.

Routing rule: {ROUTING_RULE}
Yes: put it in the profile. No: put it in the archive as a memory.

1. {_EXTRACT_STEP}
2. Rewrite the whole profile: fold in what is new and durable, drop what is resolved.
   Lines you remove because they no longer pass the routing rule go to "demoted" (they are
   filed into the archive, not lost). Do not write a '## Pinned' section: it is kept as it is.
   Stay within {{budget_tokens}} tokens.

Answer with JSON: {{{{{_MEMORIES_FIELD},
"profile": "<markdown>", "demoted": ["<line>", ...]}}}}.

Current profile:
{{profile}}

Existing memories (label: text):
{{existing}}

Summary:
{{summary}}
"""

CONTACT_MAINTENANCE_PROMPT = f"""You maintain what an agent remembers of one contact it serves, after a stretch of
its conversation with that contact was summarised. What you keep is this contact's alone: no other
contact sees it. The agent's profile is shown to every contact, so it is not changed from here.

1. {_EXTRACT_STEP}
2. What is durable about the contact (preferences, circumstances, plans) is kept as memories too.

Answer with JSON: {{{{{_MEMORIES_FIELD}}}}}.

Existing memories of this contact (label: text):
{{existing}}

Summary:
{{summary}}
"""

SUMMARY_PROMPT = """You summarise a stretch of a conversation so the agent can continue it later.

Write a dense, factual summary of the messages below (who said what, decisions, facts, open
questions, dates when they matter), at most {max_tokens} tokens.
{compress_instruction}
Answer with JSON: {{"summary": "<text>"{compress_field}}}.

Messages ({first_date} to {last_date}):
{messages}
{older}"""

COMPRESS_INSTRUCTION = (
    "Also merge the older summaries listed after the messages into one shorter summary "
    '("compressed") that keeps what still matters, at most {max_tokens} tokens.'
)

REVIEW_PROMPT = f"""You audit an agent's archive of memories. Rules flagged the findings below as possible
duplicates, contradictions, stale entries or clutter; judge each one.

Routing rule: {ROUTING_RULE}
(Memories that pass it belong in the profile, not here: leave them as they are.)

For each finding, confirm it or reject it, and choose exactly one action:
- "merge": the memories say the same thing. Give "survivor_id" (one of the finding's memories) and,
  only if no memory says it all, a merged "text" that keeps every fact of every memory.
- "update": one memory is wrong or outdated. Give its "memory_id" and the corrected "text"; the
  correction becomes a new memory and the old one is kept as superseded.
- "archive": the memory is clutter or no longer of use (give "memory_id", or none for all of them).
  Nothing is deleted: archived memories can be restored.
- "keep": nothing should change.
Two texts that differ in a number, a date, a name or a negation are different facts: never merge
them; when one corrects the other, update or archive the outdated one.

Answer with JSON: {{"verdicts": [{{"finding_id": "...", "confirm": true, "action": "merge|update|archive|keep",
"survivor_id": "", "memory_id": "", "text": ""}}]}}, one verdict per finding.
"""
