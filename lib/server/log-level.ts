import "server-only";
import { ConfigError } from "@/lib/config/load-config";
import { LOG_LEVELS, logLevelSchema, type LogLevel } from "@/lib/config/log-schema";
import type { RollscopeConfig } from "@/lib/config/schema";

/** ROLLSCOPE_LOG_LEVEL when set (as the other ROLLSCOPE_* variables, it wins), else log.level; a wrong one throws. */
export function resolveLogLevel(config: RollscopeConfig, env: Record<string, string | undefined> = process.env): LogLevel {
  const value = env.ROLLSCOPE_LOG_LEVEL?.trim();
  if (!value) return config.log.level;
  const parsed = logLevelSchema.safeParse(value);
  if (!parsed.success) throw new ConfigError(`ROLLSCOPE_LOG_LEVEL: "${value}" is not one of ${LOG_LEVELS.join(", ")}`);
  return parsed.data;
}
