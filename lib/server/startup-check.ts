import "server-only";
import { AuthConfigError, readClientSecret } from "@/lib/auth/keys";
import { getAuthSettings } from "@/lib/auth/settings";
import { getConfig } from "@/lib/config/current";
import { ConfigError } from "@/lib/config/load-config";
import type { RollscopeConfig } from "@/lib/config/schema";
import { DatabaseUrlError, databaseUrl } from "@/lib/db/database-url";
import { createClusterClients } from "@/lib/k8s/cluster-clients";
import { setLogLevel } from "@/lib/log/logger";
import { resolveLogLevel } from "./log-level";
import { describeAllowedHosts, getServerSettings } from "./server-settings";
import { metricsListenAddress } from "./metrics-listener";
import { BASE_PATH } from "@/lib/format/base-path";

/** Each cluster's kubeconfig (file, context, server) loads; nothing is contacted. */
function checkClusterKubeconfigs(config: RollscopeConfig): void {
  config.clusters.forEach((cluster, i) => {
    try {
      createClusterClients(cluster);
    } catch (err) {
      throw new ConfigError(`clusters.${i}.kubeconfig (cluster ${cluster.name}): ${err instanceof Error ? err.message : String(err)}`);
    }
  });
}

/** The configured prefix is the one the build serves: Next compiles basePath into every route and asset URL. */
export function checkBasePath(configured: string, built: string): void {
  if (configured === built) return;
  const serves = built ? `under ${built}` : "at the root";
  throw new ConfigError(
    `server.basePath is ${JSON.stringify(configured)} but this build serves ${serves}: build with ROLLSCOPE_BASE_PATH=${configured || '""'} (Next's basePath is fixed at build time)`,
  );
}

/**
 * Everything a request would otherwise find wrong later, checked once before the server takes requests: the
 * configuration file, DATABASE_URL's kind, each cluster's kubeconfig, the session secret (mode oidc needs one),
 * secret files, trusted proxies, allowed hosts, the log level and the metrics listener (sets the log level). Throws
 * the first problem, with the field it is about.
 */
export function checkStartupConfiguration(builtBasePath: string = BASE_PATH): RollscopeConfig {
  const config = getConfig();
  checkBasePath(config.server.basePath, builtBasePath);
  databaseUrl();
  checkClusterKubeconfigs(config);
  getAuthSettings();
  readClientSecret(config.auth);
  getServerSettings();
  setLogLevel(resolveLogLevel(config));
  metricsListenAddress(config);
  return config;
}

/** A configuration problem is its message (it names the field); anything else keeps its stack for whoever debugs it. */
function describeFailure(err: unknown): string {
  if (err instanceof ConfigError || err instanceof AuthConfigError || err instanceof DatabaseUrlError) return err.message;
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/**
 * Runs one start-up step of the instrumentation hook. If it fails, the process ends with status 1 and the problem
 * on stderr: Next only logs a failed hook and then answers 500 to every request, which no supervisor notices.
 */
export async function startOrExit<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    console.error(`Rollscope cannot start: ${describeFailure(err)}`);
    process.exit(1);
  }
}

/** The start-up log line that says which Host names are answered. */
export function describeServedHosts(config: RollscopeConfig): string {
  return `Rollscope: auth mode ${config.auth.mode}; answering requests addressed to ${describeAllowedHosts(getServerSettings())} (server.allowedHosts).`;
}
