import "server-only";
import { ConfigError } from "@/lib/config/load-config";
import type { RollscopeConfig } from "@/lib/config/schema";
import { serverConfigSchema } from "@/lib/config/server-schema";
import { startMetricsServer } from "@/lib/telemetry/metrics-server";

/** Where GET /metrics listens: ROLLSCOPE_METRICS_LISTEN, else server.metricsListen, else nowhere (null). */
export function metricsListenAddress(config: RollscopeConfig, env: Record<string, string | undefined> = process.env): string | null {
  const fromEnv = env.ROLLSCOPE_METRICS_LISTEN?.trim();
  if (!fromEnv) return config.server.metricsListen ?? null;
  const parsed = serverConfigSchema.shape.metricsListen.safeParse(fromEnv);
  if (!parsed.success)
    throw new ConfigError(`ROLLSCOPE_METRICS_LISTEN: "${fromEnv}" ${parsed.error.issues[0]?.message ?? "is not host:port"}`);
  return parsed.data ?? null;
}

/** Starts GET /metrics where configured (a port already taken ends start-up: a scrape target must not vanish silently). */
export async function startMetricsListener(config: RollscopeConfig): Promise<void> {
  const address = metricsListenAddress(config);
  if (!address) return;
  await startMetricsServer(address);
  console.log(`Rollscope: metrics at http://${address}/metrics`);
}
