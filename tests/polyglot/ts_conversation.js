// The TypeScript client's working memory against a daemon with workers: append, compact, end the
// session, list, the event stream that says when each compaction finished, and the jobs behind them.
// Prints JSON.
// Usage: ts_conversation.js HOST:PORT
const { MemoryClient, NotFound } = require("@memoryd/client");

async function finished(memory, jobId) {
  // A watch from the start replays the stored events, then waits for live ones until its deadline.
  for await (const event of memory.watchConversation("agent", "c1", { fromStart: true, timeoutMs: 30000 })) {
    if (event.jobId === jobId && event.kind !== "compaction_started") return event.kind;
  }
  return "no event";
}

(async () => {
  const [target] = process.argv.slice(2);
  const out = {};
  const memory = new MemoryClient(target, { tenant: "ts-tenant" });
  try {
    const turns = Array.from({ length: 12 }, (_, i) => ({
      messageId: `m${i}`,
      role: i % 2 ? "ROLE_ASSISTANT" : "ROLE_USER",
      content: `turn ${i} about the garden and the raised beds we plan to build this spring`,
    }));
    await memory.appendMessages("agent", "c1", turns, { contextWindowTokens: 300 });
    out.compact = await memory.compact("agent", "c1");
    out.compacted = await finished(memory, out.compact);
    out.end = await memory.endSession("agent", "c1");
    out.ended = await finished(memory, out.end);
    out.endEvents = [];
    for await (const e of memory.watchJob(out.end, { timeoutMs: 30000 })) out.endEvents.push(e.state);
    const job = await memory.getJob(out.compact);
    out.job = [job.jobId, job.kind, job.agentId, job.state];
    out.jobs = [];
    for await (const j of memory.listJobs({ kind: "compact", pageSize: 1 })) out.jobs.push(j.jobId);
    out.succeeded = [];
    for await (const j of memory.listJobs({ state: "JOB_STATE_SUCCEEDED", agentId: "agent" })) out.succeeded.push(j.kind);
    for (const [name, call] of [
      ["retry", () => memory.retryJob(out.compact)], // succeeded: nothing to re-drive
      ["unknown", () => memory.getJob("compact:no-such-job")],
      ["badState", () => memory.listJobs({ state: "JOB_STATE_BOGUS" }).next()],
    ]) {
      try {
        await call();
        out[name] = "no error";
      } catch (err) {
        out[name] = err.constructor.name;
      }
    }
    out.listed = [];
    for await (const c of memory.listConversations("agent")) out.listed.push([c.conversationId, c.messages, c.compactedThrough]);
    out.quiet = [];
    for await (const e of memory.watchConversation("agent", "c1", { timeoutMs: 500 })) out.quiet.push(e.kind); // no live event: the deadline ends it
    try {
      await memory.endSession("agent", "no-such-conversation");
      out.missing = "no error";
    } catch (err) {
      out.missing = { class: err.constructor.name, isNotFound: err instanceof NotFound };
    }
    const windowed = { strategy: "buffer_window", windowMessages: 4 };
    await memory.appendMessages("agent2", "short", turns, { contextWindowTokens: 4000, options: windowed });
    const context = await memory.getContext("agent2", "short", 4000);
    out.windowed = context.messages.filter((m) => m.kind === "message").map((m) => m.content);
    try {
      await memory.appendMessages("agent2", "short", turns, { options: { windowMessage: 4 } });
      out.mistyped = "no error";
    } catch (err) {
      out.mistyped = `${err.constructor.name}: ${err.message}`;
    }
  } finally {
    memory.close();
  }
  console.log(JSON.stringify(out));
})();
