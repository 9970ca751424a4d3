// A Node.js agent runtime calling memoryd: loads our .proto files at run time
// (no generated code), then Memorize + Recall + a bad request. Prints JSON.
// Usage: client.js HOST:PORT [CA_PEM API_KEY]  (with a CA and a key: TLS, and the key as a bearer token)
const fs = require("fs");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const root = path.resolve(__dirname, "..", "..");
const def = protoLoader.loadSync("memoryd/v1/memory.proto", {
  includeDirs: [path.join(root, "proto")], keepCase: true, longs: String, enums: String, defaults: true,
});
const memoryd = grpc.loadPackageDefinition(def).memoryd.v1;
const [target, caFile, apiKey] = process.argv.slice(2);
const credentials = caFile ? grpc.credentials.createSsl(fs.readFileSync(caFile)) : grpc.credentials.createInsecure();
const client = new memoryd.MemoryService(target, credentials);
const metadata = (key) => {
  const md = new grpc.Metadata();
  if (key) md.set("authorization", `Bearer ${key}`);
  else md.set("x-tenant-id", "node-tenant");
  return md;
};
const md = metadata(apiKey);

const call = (method, req, meta = md) => new Promise((resolve) => {
  client[method](req, meta, (err, res) => resolve(err ? { code: err.code, details: err.details } : { ok: res }));
});

(async () => {
  const mem = await call("Memorize", {
    agent_id: "node-agent", memory: { content: "Node runtimes can store memories too", tags: ["polyglot"] },
  });
  const recall = await call("Recall", { agent_id: "node-agent", query: "\"Can Node store memories?\"", limit: 3 });
  const bad = await call("Memorize", { agent_id: "node-agent", memory: { content: "" } });
  const out = { mem, recall, bad };
  if (apiKey) out.forged = await call("Recall", { agent_id: "node-agent", query: "x" }, metadata(apiKey.slice(0, -4) + "AAAA"));
  console.log(JSON.stringify(out));
  client.close();
})();
