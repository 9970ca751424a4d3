"""ProfileService: the bounded, pinned, versioned profile of each agent."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memoryd.core.errors import Conflict, InvalidRequest, NotFound, PreconditionFailed
from memoryd.core.event_log import Operation
from memoryd.core.model_output import MAX_SUBJECT
from memoryd.core.models import Actor, EditKind, MemoryDraft, MemoryType, Profile, ProfileEdit, RewriteResult
from memoryd.core.ports import Clock, ProfileStore, TokenCounter
from memoryd.core.profile_doc import (
    PINNED,
    Document,
    MalformedProfile,
    append_line,
    apply_changes,
    bare_line,
    check_generated,
    check_heading,
    check_line,
    fit_budget,
    manual_changes,
    parse,
    reinstate_pinned,
    remove_line,
    replace_section,
    vanished_lines,
)
from memoryd.core.validation import MAX_REVISION, check_actor, check_range
from memoryd.services.event_log import EventLog
from memoryd.services.memorize import MemorizeService
from memoryd.services.pii_floor import PiiFloor

MAX_BUDGET = 100_000
_REWRITE_ATTEMPTS = 8


class ProfileService:
    """Reads, edits (no model) and guarded automatic rewrites of agent profiles."""

    def __init__(
        self,
        store: ProfileStore,
        counter: TokenCounter,
        memorize: MemorizeService,
        clock: Clock,
        default_budget: int,
        *,
        trail: EventLog,
        pii: PiiFloor,
    ) -> None:
        self._store = store
        self._trail = trail
        self._pii = pii
        self._counter = counter
        self._memorize = memorize
        self._clock = clock
        self._default_budget = default_budget

    @property
    def encoding(self) -> str:
        """The token encoding of every count."""
        return self._counter.encoding

    async def get(self, actor: Actor) -> Profile:
        """The current revision (revision 0 and an empty document if never written)."""
        check_actor(actor)
        current = await self._store.current(actor.tenant_id, actor.agent_id)
        return current or Profile(actor.agent_id, "", 0, self._default_budget, 0, None)

    async def edit(self, actor: Actor, expected_revision: int, edit: ProfileEdit) -> Profile:
        """Apply one manual edit as a compare-and-swap on ``expected_revision``.

        Raises:
            Conflict: the profile moved on (ABORTED); nothing changed.
            PreconditionFailed: the result would exceed the budget; nothing changed.
            NotFound: remove_line of an absent line.

        """
        check_range(expected_revision, "expected_revision", 0, MAX_REVISION)
        written = {EditKind.APPEND: "append.line", EditKind.REPLACE_SECTION: "replace_section.content"}
        if edit.kind in written:
            edit = replace(edit, text=self._pii.direct(actor.tenant_id, edit.text, written[edit.kind]))
        current = await self.get(actor)
        if expected_revision != current.revision:
            raise Conflict(
                f"profile of {actor.agent_id!r} is at revision {current.revision}, "
                f"not {expected_revision}; re-read it and retry"
            )
        source = "edit"
        if edit.kind is EditKind.RESTORE_REVISION:
            check_range(edit.revision, "restore_revision.revision", 1, MAX_REVISION)
            document, budget = parse((await self.revision(actor, edit.revision)).document), current.budget_tokens
            source = f"restore:{edit.revision}"
        else:
            document, budget = self._apply(parse(current.document), current.budget_tokens, edit)
        text = document.render()
        tokens = self._counter.count(text)
        if tokens > budget:
            raise PreconditionFailed(
                f"the edit would make the profile {tokens} tokens; the budget is {budget} (now {current.token_count})"
            )
        new = Profile(actor.agent_id, text, tokens, budget, current.revision + 1, self._clock.now(), source)
        committed = await self._commit(actor, new, current.revision)
        self._trail.note(actor, Operation.PROFILE_EDIT, [actor.agent_id], (), {"revision": committed.revision})
        return committed

    async def revisions(self, actor: Actor, page_size: int, before: int) -> list[Profile]:
        """Revisions older than ``before`` (0: from the newest), newest first."""
        check_range(page_size, "page_size", 1, 200)
        check_range(before, "page_token", 0, MAX_REVISION)
        current = await self.get(actor)
        page = await self._store.revisions(actor.tenant_id, actor.agent_id, before or current.revision + 1, page_size)
        if (
            current.revision
            and (before == 0 or before > current.revision)
            and (not page or page[0].revision < current.revision)
        ):
            # A crash between the swap and the log left the current revision unlogged: log it
            # now (idempotent), and only then, so reads do not commit on every call.
            await self._store.log_revision(actor.tenant_id, current)
            page = [current, *page][:page_size]
        return page

    async def revision(self, actor: Actor, revision: int) -> Profile:
        """One logged revision."""
        check_range(revision, "revision", 1, MAX_REVISION)
        found = await self.revisions(actor, 1, revision + 1)
        if not found or found[0].revision != revision:
            raise NotFound(f"profile of {actor.agent_id!r} has no revision {revision}")
        return found[0]

    async def rewrite(
        self, actor: Actor, generated: str | None, demoted: Sequence[str], origin: str, base: Profile | None = None
    ) -> RewriteResult:
        """Replace the document with a model's output, under the guards.

        1. A missing, empty or malformed document changes nothing; the attempt is recorded.
        2. ``## Pinned`` is reinstated verbatim from the current revision.
        3. Over budget, whole trailing sections are dropped (never Pinned).
        4. Demoted lines and the lines of dropped sections are filed into the
           archive as semantic memories (``source_context`` = profile revision N).
        5. The write is a compare-and-swap on the revision the rewrite read; when a
           manual edit lands meanwhile, its line changes are replayed on top of the
           rewrite and the swap is retried, so neither is lost; when the same origin
           landed meanwhile (a job delivered twice at once), that revision is the result.

        ``base`` is the revision the caller generated from (read again when not given).
        """
        base = base or await self.get(actor)  # a stale base only costs a retry of the swap
        generated = self._pii.derived(generated) if generated else generated
        try:
            proposal = check_generated(generated)
        except MalformedProfile as exc:
            await self._store.log_failure(actor.tenant_id, actor.agent_id, base.revision, origin, str(exc))
            return RewriteResult(False, base, reason=str(exc))
        current = base
        for attempt in range(1, _REWRITE_ATTEMPTS + 1):
            doc = reinstate_pinned(proposal, parse(current.document))
            if current.revision != base.revision:
                doc = apply_changes(doc, manual_changes(parse(base.document), parse(current.document)))
            doc, dropped = fit_budget(doc, self._counter.count, current.budget_tokens)
            leaving = [(s.heading, line) for s in dropped for line in s.lines]
            leaving += vanished_lines(parse(current.document), doc)  # demoted or not, nothing leaves unfiled
            filed = await self._file(actor, demoted, leaving, current.revision)
            text = doc.render()
            new = Profile(
                actor.agent_id,
                text,
                self._counter.count(text),
                current.budget_tokens,
                current.revision + 1,
                self._clock.now(),
                f"rewrite:{origin}",
            )
            try:
                committed = await self._commit(actor, new, current.revision)
            except Conflict:
                current = await self.get(actor)
                if current.source == new.source and current.revision > base.revision:
                    # The same origin (one job) landed meanwhile: a second delivery of the job ran
                    # beside the first (a worker presumed dead, a queue that lost its marks).
                    # Replaying it on top would write its output twice.
                    return RewriteResult(True, current, filed_memories=filed, attempts=attempt)
                continue
            return RewriteResult(
                True,
                committed,
                filed_memories=filed,
                dropped_sections=tuple(s.heading for s in dropped),
                attempts=attempt,
            )
        raise Conflict(
            f"profile of {actor.agent_id!r} kept changing; rewrite gave up after {_REWRITE_ATTEMPTS} attempts"
        )

    async def _commit(self, actor: Actor, new: Profile, expected: int) -> Profile:
        if not await self._store.swap(actor.tenant_id, new, expected):
            raise Conflict(f"profile of {actor.agent_id!r} changed concurrently; re-read it and retry")
        await self._store.log_revision(actor.tenant_id, new)
        return new

    async def _file(
        self, actor: Actor, demoted: Sequence[str], leaving: Sequence[tuple[str, str]], revision: int
    ) -> int:
        """File lines leaving the profile (demoted, dropped over budget, left out) into the archive.

        One draft per text (a demoted line is also one the rewrite left out); the archive's
        deduplication makes filing again harmless.
        """
        lines: dict[str, str] = {}  # text → the heading it left (a demoted line's own when it left one)
        for heading, line in [*leaving, *(("", line) for line in demoted)]:
            if text := bare_line(line):
                lines.setdefault(text, heading)
        if not lines:
            return 0
        drafts = [
            MemoryDraft(
                content=content,
                memory_type=MemoryType.SEMANTIC,
                category="profile",
                subject=heading[:MAX_SUBJECT],  # a model's heading may run longer than a subject: the line must go
                source_context=f"profile revision {revision}",
            )
            for content, heading in lines.items()
        ]
        await self._memorize.memorize_batch(actor, drafts, skip_deduplication=False, derived=True)
        return len(drafts)

    def _apply(self, doc: Document, budget: int, edit: ProfileEdit) -> tuple[Document, int]:
        heading = PINNED if edit.pinned else edit.section
        if edit.kind is EditKind.APPEND:
            return append_line(
                doc, check_heading(heading, "append.section"), check_line(edit.text, "append.line")
            ), budget
        if edit.kind is EditKind.REPLACE_SECTION:
            return replace_section(
                doc, check_heading(heading, "replace_section.section"), edit.text, "replace_section.content"
            ), budget
        if edit.kind is EditKind.REMOVE_LINE:
            target = check_heading(heading, "remove_line.section") if heading.strip() else None
            return remove_line(doc, target, check_line(edit.text, "remove_line.line")), budget
        if edit.kind is EditKind.SET_BUDGET:
            return doc, check_range(edit.budget_tokens, "set_budget.budget_tokens", 1, MAX_BUDGET)
        raise InvalidRequest(
            "edit", "exactly one of append, replace_section, remove_line, set_budget, restore_revision is required"
        )
