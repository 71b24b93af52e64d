import "server-only";
import { parseCidr, type Cidr } from "@/lib/config/cidr";
import type { AuthConfig, RollscopeConfig } from "@/lib/config/schema";
import { getConfig } from "@/lib/config/current";
import { deriveAuthKeys, type AuthKeys } from "./keys";

export interface AuthSettings {
  readonly config: AuthConfig;
  readonly keys: AuthKeys;
  /** auth.proxy.trustedProxies: the only peers whose identity headers count (mode proxy). */
  readonly trustedProxies: readonly Cidr[];
  /** Peers whose X-Forwarded-For names the client in the audit log: the auth proxies and server.trustedProxies. */
  readonly forwardingProxies: readonly Cidr[];
  /** The whole configuration in force (readOnly, clusters, authorization). */
  readonly rollscope: RollscopeConfig;
}

const cache = new WeakMap<RollscopeConfig, AuthSettings>();

function parseRanges(texts: readonly string[], field: string): Cidr[] {
  return texts.map((text) => {
    const cidr = parseCidr(text);
    if (!cidr) throw new Error(`${field}: "${text}" is not a CIDR range`);
    return cidr;
  });
}

export function createAuthSettings(rollscope: RollscopeConfig, env: Record<string, string | undefined> = process.env): AuthSettings {
  const config = rollscope.auth;
  const trustedProxies = parseRanges(config.proxy?.trustedProxies ?? [], "auth.proxy.trustedProxies");
  const forwardingProxies = [...trustedProxies, ...parseRanges(rollscope.server.trustedProxies, "server.trustedProxies")];
  return { config, keys: deriveAuthKeys(config, env), trustedProxies, forwardingProxies, rollscope };
}

/** The settings of one configuration, derived once. */
export function authSettingsOf(rollscope: RollscopeConfig): AuthSettings {
  let settings = cache.get(rollscope);
  if (!settings) {
    settings = createAuthSettings(rollscope);
    cache.set(rollscope, settings);
  }
  return settings;
}

/** The settings for the configuration in force (one per process); reading them starts no cluster watch. */
export function getAuthSettings(): AuthSettings {
  return authSettingsOf(getConfig());
}
