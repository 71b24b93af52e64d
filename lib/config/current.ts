import "server-only";
import { loadConfig } from "./load-config";
import type { RollscopeConfig } from "./schema";

const globalForConfig = globalThis as unknown as { rollscopeConfig?: RollscopeConfig };

/**
 * The configuration in force, loaded once per process (kept across dev-server hot reloads). Reading it starts
 * nothing: no watch, no database, no scraper. An invalid configuration throws the loader's `ConfigError`.
 */
export function getConfig(): RollscopeConfig {
  globalForConfig.rollscopeConfig ??= loadConfig();
  return globalForConfig.rollscopeConfig;
}
