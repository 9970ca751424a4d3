// A Node.js runtime and its operator using the memory graph: loads graph.proto at run time,
// asserts two dated facts, searches as of two dates, explains the older fact, sends a bad request.
// Usage: graph.js HOST:PORT. Prints JSON.
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const root = path.resolve(__dirname, "..", "..");
const def = protoLoader.loadSync("memoryd/v1/graph.proto", {
  includeDirs: [path.join(root, "proto")], keepCase: true, longs: String, enums: String, defaults: true,
});
const memoryd = grpc.loadPackageDefinition(def).memoryd.v1;
const client = new memoryd.GraphService(process.argv[2], grpc.credentials.createInsecure());
const md = new grpc.Metadata();
md.set("x-tenant-id", "node-tenant");
const call = (method, req) => new Promise((resolve) => {
  client[method](req, md, (err, res) => resolve(err ? { code: err.code, details: err.details } : { ok: res }));
});
const seconds = (iso) => ({ seconds: String(Date.parse(iso) / 1000), nanos: 0 });
const billing = (name, iso, fact) => ({
  subject: "Acme", subject_type: "ENTITY_TYPE_ORGANIZATION", predicate: "billing_contact",
  object: name, object_type: "ENTITY_TYPE_PERSON", fact, valid_from: seconds(iso),
  scope: "SCOPE_END_USER", end_user_id: "contact-7",
});

(async () => {
  const nadia = await call("AssertFact", billing("Nadia", "2026-09-01T00:00:00Z", "Nadia handles billing at Acme."));
  const omar = await call("AssertFact", billing("Omar", "2026-10-01T00:00:00Z", "Omar handles billing at Acme from October."));
  const ask = { agent_id: "node-agent", end_user_id: "contact-7", query: "who handles billing at Acme" };
  const then = await call("SearchGraph", { ...ask, as_of: seconds("2026-09-16T00:00:00Z") });
  const now = await call("SearchGraph", ask);
  const history = await call("ExplainFact", { agent_id: "node-agent", end_user_id: "contact-7", fact_id: nadia.ok.fact.id });
  const bad = await call("AssertFact", { subject: "Acme", predicate: "??", object: "x", fact: "x" });
  console.log(JSON.stringify({ nadia, omar, then, now, history, bad }));
  client.close();
})();
