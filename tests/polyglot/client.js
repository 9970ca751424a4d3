// A Node.js agent runtime calling memoryd: loads our .proto files at run time
// (no generated code), then Memorize + Recall + a bad request. Prints JSON.
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const root = path.resolve(__dirname, "..", "..");
const def = protoLoader.loadSync("memoryd/v1/memory.proto", {
  includeDirs: [path.join(root, "proto")], keepCase: true, longs: String, enums: String, defaults: true,
});
const memoryd = grpc.loadPackageDefinition(def).memoryd.v1;
const client = new memoryd.MemoryService(process.argv[2], grpc.credentials.createInsecure());
const md = new grpc.Metadata();
md.set("x-tenant-id", "node-tenant");

const call = (method, req) => new Promise((resolve) => {
  client[method](req, md, (err, res) => resolve(err ? { code: err.code, details: err.details } : { ok: res }));
});

(async () => {
  const mem = await call("Memorize", {
    agent_id: "node-agent", memory: { content: "Node runtimes can store memories too", tags: ["polyglot"] },
  });
  const recall = await call("Recall", { agent_id: "node-agent", query: "\"Can Node store memories?\"", limit: 3 });
  const bad = await call("Memorize", { agent_id: "node-agent", memory: { content: "" } });
  console.log(JSON.stringify({ mem, recall, bad }));
  client.close();
})();
