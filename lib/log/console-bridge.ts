import "server-only";
import { format } from "node:util";
import type { Logger } from "pino";
import { logger } from "./logger";

type ConsoleMethod = "log" | "info" | "warn" | "error" | "debug" | "trace";
const LEVEL_OF: Record<ConsoleMethod, "info" | "warn" | "error" | "debug" | "trace"> = {
  log: "info",
  info: "info",
  warn: "warn",
  error: "error",
  debug: "debug",
  trace: "trace",
};

const INSTALLED = Symbol.for("rollscope.consoleBridge");
type ConsoleWithBridge = Console & { [INSTALLED]?: true };

/** One console call as a log record: the first error as `err`, everything else formatted into `msg` as console would. */
export function writeConsoleCall(log: Logger, method: ConsoleMethod, args: unknown[]): void {
  const errorIndex = args.findIndex((arg) => arg instanceof Error);
  const rest = errorIndex < 0 ? args : args.filter((_, i) => i !== errorIndex);
  const msg = rest.length > 0 ? format(...rest) : errorIndex < 0 ? "" : (args[errorIndex] as Error).message;
  const level = LEVEL_OF[method];
  if (errorIndex < 0) log[level](msg);
  else log[level]({ err: args[errorIndex] }, msg);
}

/**
 * Routes console.* through the JSON logger, so every line the process writes — Rollscope's own messages and Next's —
 * is one JSON object with its level, time, request id and secrets scrubbed, without changing each call site (the
 * approach of the next-logger package). Idempotent; installed by the instrumentation hook.
 */
export function installConsoleBridge(): void {
  const target = console as ConsoleWithBridge;
  if (target[INSTALLED]) return;
  target[INSTALLED] = true;
  for (const method of Object.keys(LEVEL_OF) as ConsoleMethod[]) {
    target[method] = (...args: unknown[]) => writeConsoleCall(logger(), method, args);
  }
}
