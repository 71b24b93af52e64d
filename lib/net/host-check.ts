/**
 * A host this server answers for: a name or address, on any port unless one is given. A port adds no protection
 * against DNS rebinding (the attacker's page can only send its own name), and leaving it open keeps
 * `kubectl port-forward 8080:3000` and `ssh -L` working.
 */
export interface AllowedHost {
  readonly hostname: string;
  /** null: any port. */
  readonly port: string | null;
}

/** Names that always mean this machine (a browser never resolves them through DNS). */
export const LOOPBACK_HOSTS: readonly AllowedHost[] = [
  { hostname: "localhost", port: null },
  { hostname: "127.0.0.1", port: null },
  { hostname: "[::1]", port: null },
];

/**
 * A Host header (or `host[:port]` entry) as the WHATWG URL parser normalises it, so `LOCALHOST:80` and `localhost`
 * compare equal; null when it is not a bare host (userinfo, path, spaces or an empty name).
 */
export function parseHost(value: string): { hostname: string; port: string } | null {
  if (!/^[A-Za-z0-9._~:[\]-]+$/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return null;
  }
  return url.hostname ? { hostname: url.hostname, port: url.port } : null;
}

/** `rollscope.example.com` (any port) or `rollscope.example.com:8443`; null when the entry is not a host. */
export function parseAllowedHost(entry: string): AllowedHost | null {
  const parsed = parseHost(entry.trim());
  if (!parsed) return null;
  const hasPort = /:\d+$/.test(entry.trim());
  return { hostname: parsed.hostname, port: hasPort ? parsed.port : null };
}

/** Whether the request's Host header names an allowed host; a missing or malformed header is refused. */
export function isAllowedHost(hostHeader: string | null | undefined, allowed: readonly AllowedHost[]): boolean {
  if (!hostHeader) return false;
  const host = parseHost(hostHeader);
  if (!host) return false;
  return allowed.some((a) => a.hostname === host.hostname && (a.port === null || a.port === host.port));
}

/** Wildcard listen addresses name no host a browser would address. */
export function isWildcardAddress(address: string): boolean {
  return ["0.0.0.0", "::", "[::]"].includes(address.trim());
}
