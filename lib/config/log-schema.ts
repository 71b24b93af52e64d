import { z } from "zod";

/** pino's levels, most verbose first; `silent` logs nothing. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

export const logLevelSchema = z.enum(LOG_LEVELS);

/** The server's own log: JSON lines on stdout (ROLLSCOPE_LOG_LEVEL overrides the level). */
export const logConfigSchema = z.strictObject({
  level: logLevelSchema.default("info"),
});

export type LogLevel = z.infer<typeof logLevelSchema>;
export type LogConfig = z.infer<typeof logConfigSchema>;
