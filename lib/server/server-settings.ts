import "server-only";
import { getConfig } from "@/lib/config/current";
import { ConfigError } from "@/lib/config/load-config";
import type { RollscopeConfig } from "@/lib/config/schema";
import { isWildcardAddress, LOOPBACK_HOSTS, parseAllowedHost, type AllowedHost } from "@/lib/net/host-check";

export interface ServerSettings {
  /** Host names requests may be addressed to (anything else: 421). */
  readonly allowedHosts: readonly AllowedHost[];
  readonly maxRequestBodyBytes: number;
}

function parseEnvHosts(text: string): AllowedHost[] {
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const host = parseAllowedHost(entry);
      if (!host) throw new ConfigError(`ROLLSCOPE_ALLOWED_HOSTS: "${entry}" is not a host name or address (optionally with :port)`);
      return host;
    });
}

/** A listen address as a Host header would name it (IPv6 in brackets); none for a wildcard. */
function listenHost(address: string | undefined): AllowedHost | null {
  if (!address || isWildcardAddress(address)) return null;
  const bracketed = address.includes(":") && !address.startsWith("[") ? `[${address}]` : address;
  const host = parseAllowedHost(bracketed);
  return host && { hostname: host.hostname, port: null };
}

/**
 * Allowed hosts: ROLLSCOPE_ALLOWED_HOSTS, else server.allowedHosts, else the loopback names; always auth.baseUrl's
 * host (the public URL) and a specific listen address (an address is never a rebinding target).
 */
export function createServerSettings(config: RollscopeConfig, env: Record<string, string | undefined> = process.env): ServerSettings {
  const fromEnv = env.ROLLSCOPE_ALLOWED_HOSTS?.trim();
  const configured = fromEnv ? parseEnvHosts(fromEnv) : config.server.allowedHosts?.map((entry) => parseAllowedHost(entry) as AllowedHost);
  const publicUrl = config.auth.baseUrl ? { hostname: new URL(config.auth.baseUrl).hostname, port: null } : null;
  const listen = listenHost(env.ROLLSCOPE_LISTEN?.trim() || config.server.listen);
  const allowedHosts = [...(configured ?? LOOPBACK_HOSTS), ...(publicUrl ? [publicUrl] : []), ...(listen ? [listen] : [])];
  return { allowedHosts, maxRequestBodyBytes: config.server.maxRequestBodyBytes };
}

const cache = new WeakMap<RollscopeConfig, ServerSettings>();

/** The settings for the configuration in force; reading them starts nothing. */
export function getServerSettings(): ServerSettings {
  const config = getConfig();
  let settings = cache.get(config);
  if (!settings) {
    settings = createServerSettings(config);
    cache.set(config, settings);
  }
  return settings;
}

/** For the start-up log: the hosts requests are answered for. */
export function describeAllowedHosts(settings: ServerSettings): string {
  return settings.allowedHosts.map((h) => (h.port === null ? h.hostname : `${h.hostname}:${h.port}`)).join(", ");
}
