import "server-only";
import { pino, type DestinationStream, type Logger } from "pino";
import { ConfigError } from "@/lib/config/load-config";
import { LOG_LEVELS, logLevelSchema, type LogLevel } from "@/lib/config/log-schema";
import { redactErrorText } from "@/lib/errors/known-secrets";
import { currentRequestContext } from "./request-context";

/** Any value as a copy whose every string is scrubbed of credentials (errors become plain objects, stack included). */
export function redactLogValue(value: unknown, depth = 0): unknown {
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

/** ROLLSCOPE_LOG_LEVEL when set; an invalid value throws, naming the variable and the levels it may be. */
function levelFromEnv(env: Record<string, string | undefined>): LogLevel | null {
  const value = env.ROLLSCOPE_LOG_LEVEL?.trim();
  if (!value) return null;
  const parsed = logLevelSchema.safeParse(value);
  if (!parsed.success) throw new ConfigError(`ROLLSCOPE_LOG_LEVEL: "${value}" is not one of ${LOG_LEVELS.join(", ")}`);
  return parsed.data;
}

/** The level before the configuration is read: a wrong ROLLSCOPE_LOG_LEVEL is reported by configureLogLevel. */
function initialLevel(): LogLevel {
  try {
    return levelFromEnv(process.env) ?? "info";
  } catch {
    return "info";
  }
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

/** Applies the configured level; ROLLSCOPE_LOG_LEVEL, when set, wins (as the other ROLLSCOPE_* variables do). Throws ConfigError on a wrong one. */
export function configureLogLevel(configured: LogLevel, env: Record<string, string | undefined> = process.env): void {
  logger().level = levelFromEnv(env) ?? configured;
}
