import "server-only";
import { redactSecrets } from "./redact-secrets";

// On globalThis, like the fleet that fills it: Next can load this module once per bundle (instrumentation, routes).
const globalForSecrets = globalThis as unknown as { rollscopeKnownSecrets?: Set<string> };

function knownSecrets(): Set<string> {
  globalForSecrets.rollscopeKnownSecrets ??= new Set();
  return globalForSecrets.rollscopeKnownSecrets;
}

/**
 * Remembers credential values this process holds (kubeconfig tokens, passwords, key data, exec plugin env, Prometheus
 * auth), so that error text can be scrubbed of them exactly, whatever shape they appear in.
 */
export function rememberSecrets(values: Iterable<string | null | undefined>): void {
  const known = knownSecrets();
  for (const value of values) if (value) known.add(value);
}

/**
 * The last line before text reaches a view model or a response: every credential shape and every remembered secret
 * value replaced by `[redacted]`.
 */
export function redactErrorText(text: string): string {
  return redactSecrets(text, knownSecrets());
}

/** An unknown thrown value as text that is safe to show. */
export function describeErrorSafely(err: unknown): string {
  return redactErrorText(err instanceof Error ? err.message : String(err));
}
