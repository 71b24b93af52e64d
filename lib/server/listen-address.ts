import type { AuthMode } from "@/lib/auth/types";
import { isWildcardAddress } from "@/lib/net/host-check";

export interface ListenAddress {
  /** The address for `next start -H`; null leaves it to Next (every interface). */
  readonly host: string | null;
  /** What decided it, for the start-up log line. */
  readonly source: "-H" | "ROLLSCOPE_LISTEN" | "server.listen" | "default";
}

/** The value of `-H`/`--hostname` among `next start` arguments, if one is given. */
export function hostnameArgument(args: readonly string[]): string | undefined {
  let found: string | undefined;
  args.forEach((arg, i) => {
    if ((arg === "-H" || arg === "--hostname") && args[i + 1] !== undefined) found = args[i + 1];
    else if (arg.startsWith("--hostname=")) found = arg.slice("--hostname=".length);
  });
  return found;
}

/**
 * Where the server listens: an explicit `-H`, else ROLLSCOPE_LISTEN, else server.listen. Without any, auth mode none
 * listens on 127.0.0.1 only, because whoever reaches the port acts with the kubeconfig's credentials; modes with
 * sign-in keep Next's default of every interface. (HOSTNAME is not read: shells and containers set it to the
 * machine's name, which would open mode none to the network by accident.)
 */
export function resolveListenAddress(input: { argument?: string; env?: string; configured?: string; mode: AuthMode }): ListenAddress {
  if (input.argument) return { host: input.argument, source: "-H" };
  if (input.env?.trim()) return { host: input.env.trim(), source: "ROLLSCOPE_LISTEN" };
  if (input.configured) return { host: input.configured, source: "server.listen" };
  return { host: input.mode === "none" ? "127.0.0.1" : null, source: "default" };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The start-up log line: where the server listens and, without sign-in, what that exposes. */
export function describeListenAddress(listen: ListenAddress, mode: AuthMode): string {
  const where = listen.host === null ? "every interface" : listen.host;
  const why = listen.source === "default" ? "" : ` (from ${listen.source})`;
  if (mode !== "none") return `Rollscope: auth mode ${mode}: listening on ${where}${why}.`;
  if (listen.host !== null && isLoopback(listen.host)) {
    return `Rollscope: auth mode none (no sign-in): listening on ${listen.host} only${why}. To reach it from other machines set ROLLSCOPE_LISTEN (or server.listen), and sign-in (auth.mode) first.`;
  }
  const exposed =
    listen.host === null || isWildcardAddress(listen.host)
      ? "anyone on the network who reaches this port"
      : `anyone who reaches ${listen.host}`;
  return `Rollscope: auth mode none (no sign-in): listening on ${where}${why}: ${exposed} can read the fleet and run actions with the kubeconfig's credentials.`;
}
