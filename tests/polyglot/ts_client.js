// The TypeScript client (clients/typescript, built by `make install`) against a live daemon:
// the tenant once, typed errors naming the field, retries on UNAVAILABLE only. Prints JSON.
// Usage: ts_client.js HOST:PORT CLOSED_PORT
const { MemoryClient, InvalidArgument, NotFound, Unavailable } = require("@memoryd/client");

(async () => {
  const [target, closed] = process.argv.slice(2);
  const out = {};
  let retried = 0;
  const memory = new MemoryClient(target, { tenant: "ts-tenant", onRetry: () => retried++ });
  try {
    const who = await memory.whoAmI();
    out.who = [who.tenantId, who.role, who.protectedMode];
    const stored = await memory.memorize("agent", "TypeScript runtimes share memories too", { tags: ["ts"] });
    out.stored = stored.memory;
    out.again = (await memory.memorize("agent", "the same request id twice", {}, { requestId: "ts-1" })).memory.id;
    out.repeat = (await memory.memorize("agent", "the same request id twice", {}, { requestId: "ts-1" })).memory.id;
    out.hits = (await memory.recall("agent", "Which runtimes share memories?", { limit: 3 })).map((h) => [h.memory.id, h.score]);
    out.listed = [];
    for await (const m of memory.list("agent", 1)) out.listed.push(m.id);
    const appended = await memory.appendMessages("agent", "c1", [{ messageId: "m1", role: "ROLE_USER", content: "hello from node" }]);
    out.seqs = appended.seqs;
    out.context = (await memory.getContext("agent", "c1", 2000)).messages.map((m) => m.content);
    const draft = (await memory.memorize("agent", "The staging host is db-3")).memory;
    out.updated = await memory.update("agent", draft.id, { tags: { values: ["infra"] }, collection: "ops" });
    const fixed = await memory.feedback("agent", draft.id, "FEEDBACK_SIGNAL_CORRECTION", { correction: "The staging host is db-4" });
    out.correction = [fixed.memory.status, fixed.correction.content, fixed.correction.collection];
    out.forgotten = await memory.forget("agent", fixed.correction.id);
    out.restored = (await memory.restore("agent", draft.id)).status; // the correction gone, the draft back
    out.history = (await memory.history("agent", draft.id)).map((e) => e.kind);
    const pinned = (await memory.memorize("agent", "The backup runs at 02:00", { pinned: true })).memory;
    out.pinnedOnly = [];
    for await (const m of memory.list("agent", 100, "", { pinnedOnly: true })) out.pinnedOnly.push(m.id === pinned.id);
    // Plain JavaScript: an enum's short name is its label, a list for a one-list wrapper is the wrapper.
    const shared = (await memory.memorize("agent", "The office opens at 8", { scope: "shared" })).memory;
    out.shared = [shared.scope, (await memory.update("agent", shared.id, { tags: ["office"] })).tags];
    out.liked = (await memory.feedback("agent", shared.id, "useful")).memory.feedback.useful; // sent as 0 before
    const batch = await memory.memorizeBatch("agent", [{ content: "Deploys freeze on Fridays", scope: "shared" }, { content: "Ops rota is weekly" }]);
    out.batch = batch.map((r) => [r.memory.content, r.memory.scope]);
    const used = { [batch[0].memory.id]: true, [batch[1].memory.id]: false };
    out.recorded = [await memory.autoFeedback("agent", used, { requestId: "turn-1" }), await memory.autoFeedback("agent", used, { requestId: "turn-1" })];
    out.usedOnce = (await memory.get("agent", batch[0].memory.id)).feedback.used;
    const omar = await memory.assertFact("Acme", "billing_contact", "Omar", "Omar handles billing at Acme.", { scope: "tenant" });
    const found = await memory.searchGraph("agent", "who handles billing at Acme");
    out.graph = [omar.action, found.facts.map((f) => f.object), (await memory.explainFact("agent", omar.fact.id)).fact.id === omar.fact.id];
    const edited = await memory.editProfile("agent", "- answers in TypeScript", { section: "Style" });
    let stale = "no error";
    try {
      await memory.editProfile("agent", "- a stale edit", { expectedRevision: 0 }); // compare-and-swap
    } catch (err) {
      stale = err.constructor.name;
    }
    const removed = await memory.editProfile("agent", "- answers in TypeScript", { section: "Style", remove: true });
    out.profile = [edited.revision, edited.document.includes("- answers in TypeScript"), stale, removed.revision,
      (await memory.getProfile("agent")).document.includes("TypeScript")];
    out.mistakes = [];
    for (const fields of [{ scope: "team" }, { tags: "prefs" }, { colour: "red" }, { endUser: "u1" }]) {
      try {
        await memory.memorize("agent", "never stored", fields);
        out.mistakes.push("stored");
      } catch (err) {
        out.mistakes.push(`${err.constructor.name}: ${err.message}`);
      }
    }
    try {
      await memory.memorizeBatch("agent", [{ content: "never stored" }, { content: "never stored", tags: "x" }]);
    } catch (err) {
      out.mistakes.push(`${err.constructor.name}: ${err.message}`);
    }
    try {
      await memory.feedback("agent", shared.id, "helpful");
      out.mistakes.push("sent");
    } catch (err) {
      out.mistakes.push(`${err.constructor.name}: ${err.message}`);
    }
    out.neverStored = (await memory.recall("agent", "never stored", { limit: 10 })).filter((h) => h.memory.content === "never stored").length;
    for (const [name, attempt] of [
      ["invalid", () => memory.recall("agent", "")],
      ["missing", () => memory.get("agent", "0".repeat(32))],
    ]) {
      try {
        await attempt();
        out[name] = "no error";
      } catch (err) {
        out[name] = {
          class: err.constructor.name,
          details: err.details,
          field: err.field ?? null, // from the status's google.rpc.BadRequest
          isInvalid: err instanceof InvalidArgument,
          isNotFound: err instanceof NotFound,
        };
      }
    }
    out.retriedOnRefusals = retried; // a refusal is never retried
  } finally {
    memory.close();
  }
  const down = new MemoryClient(`127.0.0.1:${closed}`, { tenant: "ts-tenant", retries: 2, backoffMs: 20, timeoutMs: 2000, onRetry: () => retried++ });
  try {
    await down.recall("agent", "anything");
  } catch (err) {
    out.down = { class: err.constructor.name, isUnavailable: err instanceof Unavailable, retries: retried };
  } finally {
    down.close();
  }
  try {
    new MemoryClient(target);
  } catch (err) {
    out.noTenant = err.message;
  }
  console.log(JSON.stringify(out));
})();
