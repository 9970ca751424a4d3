// Store a memory, recall it, list the agent's memories: from Node.js, with the TypeScript client.
const { MemoryClient, InvalidArgument } = require("@memoryd/client");

async function main(target = "127.0.0.1:50051") {
  const memory = new MemoryClient(target, { tenant: "acme" }); // apiKey: "mdk_..." once keys exist
  try {
    await memory.memorize("assistant", "Caroline prefers espresso in the morning", { tags: ["preferences"] });
    for (const hit of await memory.recall("assistant", "What does Caroline drink?", { minScore: 0.3 })) {
      console.log(hit.score.toFixed(2), hit.memory.content);
    }
    for await (const m of memory.list("assistant")) console.log(m.id, m.content);
    await memory.recall("assistant", "").catch((err) => {
      if (!(err instanceof InvalidArgument)) throw err;
      console.log("refused:", err.details); // the field it names: query
    });
  } finally {
    memory.close();
  }
}

main(process.argv[2]);
