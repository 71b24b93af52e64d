import "server-only";
import { parseCidr, type Cidr } from "@/lib/config/cidr";
import type { AuthConfig, RollscopeConfig } from "@/lib/config/schema";
import { getFleet } from "@/lib/fleet/fleet";
import { deriveAuthKeys, type AuthKeys } from "./keys";

export interface AuthSettings {
  readonly config: AuthConfig;
  readonly keys: AuthKeys;
  readonly trustedProxies: readonly Cidr[];
  /** The whole configuration in force (readOnly, clusters, authorization). */
  readonly rollscope: RollscopeConfig;
}

const cache = new WeakMap<RollscopeConfig, AuthSettings>();

export function createAuthSettings(rollscope: RollscopeConfig, env: Record<string, string | undefined> = process.env): AuthSettings {
  const config = rollscope.auth;
  const trustedProxies = (config.proxy?.trustedProxies ?? []).map((text) => {
    const cidr = parseCidr(text);
    if (!cidr) throw new Error(`auth.proxy.trustedProxies: "${text}" is not a CIDR range`);
    return cidr;
  });
  return { config, keys: deriveAuthKeys(config, env), trustedProxies, rollscope };
}

/** The settings for the configuration the fleet runs with (one configuration per process). */
export function getAuthSettings(): AuthSettings {
  const rollscope = getFleet().config;
  let settings = cache.get(rollscope);
  if (!settings) {
    settings = createAuthSettings(rollscope);
    cache.set(rollscope, settings);
  }
  return settings;
}
