import "server-only";
import { readClientSecret } from "@/lib/auth/keys";
import { getAuthSettings } from "@/lib/auth/settings";
import { getConfig } from "@/lib/config/current";
import type { RollscopeConfig } from "@/lib/config/schema";
import { describeAllowedHosts, getServerSettings } from "./server-settings";

/**
 * Everything a request would otherwise find wrong later, checked once before the server takes requests: the
 * configuration file, the session secret (mode oidc needs one), secret files, trusted proxies and allowed hosts.
 * Throws the first problem, with the field it is about.
 */
export function checkStartupConfiguration(): RollscopeConfig {
  const config = getConfig();
  getAuthSettings();
  readClientSecret(config.auth);
  getServerSettings();
  return config;
}

/**
 * The instrumentation hook's check: a bad configuration ends the process with status 1 and the problem on stderr,
 * instead of a server that answers 500 to every request. Logs which hosts requests are answered for.
 */
export function checkStartupConfigurationOrExit(): RollscopeConfig {
  let config: RollscopeConfig;
  try {
    config = checkStartupConfiguration();
  } catch (err) {
    console.error(`Rollscope cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  console.log(`Rollscope: auth mode ${config.auth.mode}; answering requests addressed to ${describeAllowedHosts(getServerSettings())} (server.allowedHosts).`);
  return config;
}
