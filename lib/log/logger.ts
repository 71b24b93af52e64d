import "server-only";
import { pino, type DestinationStream, type Logger } from "pino";
import type { LogLevel } from "@/lib/config/log-schema";
import { redactErrorText } from "@/lib/errors/known-secrets";
import { currentRequestContext } from "./request-context";

/** Any value as a copy whose every string is scrubbed of credentials (errors become plain objects, stack included). */
function redactLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactErrorText(value);
  if (value === null || typeof value !== "object" || depth > 6) return value;
  if (value instanceof Error) {
    const cause = (value as { cause?: unknown }).cause;
    return {
      type: value.name,
      message: redactErrorText(value.message),
      stack: value.stack === undefined ? undefined : redactErrorText(value.stack),
      ...(cause === undefined ? {} : { cause: redactLogValue(cause, depth + 1) }),
    };
  }
  if (Array.isArray(value)) return value.map((item) => redactLogValue(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactLogValue(item, depth + 1)]));
}

/** The level before the configuration is read: ROLLSCOPE_LOG_LEVEL when it is one (start-up reports a wrong one). */
function initialLevel(): string {
  const value = process.env.ROLLSCOPE_LOG_LEVEL?.trim();
  return value && (value === "silent" || value in pino.levels.values) ? value : "info";
}

/**
 * A pino logger writing one JSON object per line: `level` as a name, `time` in ISO 8601, `reqId` while a request is
 * handled, and every argument scrubbed of credentials (URL passwords, bearer values, `token=…`, the kubeconfig's and
 * Prometheus's own secrets) before it is serialized.
 */
export function createLogger(options: { level?: LogLevel; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? initialLevel(),
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Errors arrive here already as redacted plain objects (see logMethod); pino's serializer would rename them.
      serializers: { err: (err: unknown) => err },
      mixin: () => {
        const request = currentRequestContext();
        return request ? { reqId: request.requestId } : {};
      },
      hooks: {
        logMethod(args, method) {
          // An error first is pino's `err` field; as a redacted plain object it must be named so explicitly.
          const [first, ...rest] = args as unknown[];
          const head = first instanceof Error ? { err: redactLogValue(first) } : redactLogValue(first);
          method.apply(this, [head, ...rest.map((arg) => redactLogValue(arg))] as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination({ fd: 1, sync: true }),
  );
}

const globalForLogger = globalThis as unknown as { rollscopeLogger?: Logger };

/** The process's logger (shared by every module instance Next loads). */
export function logger(): Logger {
  globalForLogger.rollscopeLogger ??= createLogger();
  return globalForLogger.rollscopeLogger;
}

export function setLogLevel(level: LogLevel): void {
  logger().level = level;
}
