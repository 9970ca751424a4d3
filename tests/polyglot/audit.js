// A Node.js operator tool on AuditService: plants a duplicate and clutter, asks for a review,
// follows the job on JobService, applies the merge, restores the loser, reads the usage report.
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const root = path.resolve(__dirname, "..", "..");
const def = protoLoader.loadSync(["memoryd/v1/memory.proto", "memoryd/v1/audit.proto", "memoryd/v1/jobs.proto"], {
  includeDirs: [path.join(root, "proto")], keepCase: true, longs: String, enums: String, defaults: true,
});
const v1 = grpc.loadPackageDefinition(def).memoryd.v1;
const target = process.argv[2];
const memory = new v1.MemoryService(target, grpc.credentials.createInsecure());
const audits = new v1.AuditService(target, grpc.credentials.createInsecure());
const jobs = new v1.JobService(target, grpc.credentials.createInsecure());
const md = new grpc.Metadata();
md.set("x-tenant-id", "node-tenant");

const call = (client, method, req) => new Promise((resolve) => {
  client[method](req, md, (err, res) => resolve(err ? { code: err.code, details: err.details } : { ok: res }));
});
const watch = (jobId) => new Promise((resolve) => {
  const events = [];
  const stream = jobs.WatchJob({ job_id: jobId }, md);
  stream.on("data", (e) => events.push(e.event.state));
  stream.on("end", () => resolve(events));
  stream.on("error", (err) => resolve([...events, `error ${err.code}`]));
});

(async () => {
  const agent = "node-agent";
  const planted = await call(memory, "MemorizeBatch", {
    agent_id: agent, skip_deduplication: true,
    items: [
      { content: "The deploy window is Tuesday 10:00", tags: ["ops"] },
      { content: "The deploy window is Tuesday 10:00", tags: ["release"] },
      { content: "thanks!" },
    ],
  });
  const review = await call(audits, "ReviewMemories", { agent_id: agent });
  const states = await watch(review.ok.job_id);
  const got = await call(audits, "GetReview", { agent_id: agent, review_id: review.ok.job_id });
  const dup = got.ok.findings.find((f) => f.kind === "FINDING_KIND_DUPLICATE");
  const applied = await call(audits, "ApplyFindings", {
    agent_id: agent, review_id: review.ok.job_id, finding_ids: [dup.finding_id],
  });
  const loser = dup.memory_ids.find((id) => id !== dup.survivor_id);
  const superseded = await call(memory, "ListMemories", {
    agent_id: agent, filter: { statuses: ["MEMORY_STATUS_SUPERSEDED"] },
  });
  const restored = await call(memory, "RestoreMemory", { agent_id: agent, memory_id: loser });
  const report = await call(audits, "GetUsageReport", {});
  const listed = await call(audits, "ListReviews", { agent_id: agent });
  const bad = await call(audits, "ReviewMemories", { agent_id: "bad agent" });
  console.log(JSON.stringify({ planted, states, got, dup, applied, superseded, restored, report, listed, bad }));
  memory.close(); audits.close(); jobs.close();
})();
