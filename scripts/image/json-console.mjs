// Preloaded by the entrypoint (node --import): Next prints its start-up lines before Rollscope's instrumentation
// routes console.* through the JSON logger (lib/log/console-bridge.ts, which then replaces this), so until then each
// console line is written as the same kind of JSON object, colours stripped. Nothing secret is known this early.
import { format } from "node:util";

const LEVELS = { debug: "debug", log: "info", info: "info", warn: "warn", error: "error" };
const ANSI = /\u001b\[[0-9;]*m/g;

for (const [method, level] of Object.entries(LEVELS)) {
  console[method] = (...args) => {
    const msg = format(...args)
      .replace(ANSI, "")
      .trim();
    if (msg) process.stdout.write(`${JSON.stringify({ level, time: new Date().toISOString(), msg })}\n`);
  };
}
