import "server-only";
import { hkdfSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AuthConfig } from "@/lib/config/schema";

export class AuthConfigError extends Error {}

export interface AuthKeys {
  /** A256GCM key for the encrypted session and sign-in cookies. */
  readonly sessionKey: Uint8Array;
  /** HMAC-SHA256 key for CSRF tokens. */
  readonly csrfKey: Uint8Array;
}

function readSecretFile(file: string, field: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (err) {
    throw new AuthConfigError(`${field}: cannot read ${file}: ${(err as Error).message}`);
  }
}

/** auth.sessionSecret, auth.sessionSecretFile or ROLLSCOPE_SESSION_SECRET; undefined when none is set. */
function readSessionSecret(auth: AuthConfig, env: Record<string, string | undefined> = process.env): string | undefined {
  const secret =
    auth.sessionSecret ??
    (auth.sessionSecretFile ? readSecretFile(auth.sessionSecretFile, "auth.sessionSecretFile") : env.ROLLSCOPE_SESSION_SECRET);
  if (secret !== undefined && secret.length < 32) {
    throw new AuthConfigError("auth.sessionSecret (or its file, or ROLLSCOPE_SESSION_SECRET): must be at least 32 characters");
  }
  return secret;
}

/** The OIDC client secret from auth.oidc.clientSecret or clientSecretFile (public clients have none). */
export function readClientSecret(auth: AuthConfig): string | undefined {
  const oidc = auth.oidc;
  if (!oidc) return undefined;
  return oidc.clientSecret ?? (oidc.clientSecretFile ? readSecretFile(oidc.clientSecretFile, "auth.oidc.clientSecretFile") : undefined);
}

function derive(secret: Uint8Array, info: string): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", secret, "rollscope", info, 32));
}

/**
 * Keys derived from the session secret. Mode oidc needs a configured secret so sessions survive restarts and
 * replicas agree; modes none and proxy keep no session, so a random per-process key only signs CSRF tokens.
 */
export function deriveAuthKeys(auth: AuthConfig, env: Record<string, string | undefined> = process.env): AuthKeys {
  const secret = readSessionSecret(auth, env);
  if (secret === undefined && auth.mode === "oidc") {
    throw new AuthConfigError(
      "auth.sessionSecret: mode oidc needs a session secret (auth.sessionSecret, auth.sessionSecretFile or ROLLSCOPE_SESSION_SECRET)",
    );
  }
  const material = secret !== undefined ? Buffer.from(secret, "utf8") : randomBytes(32);
  return { sessionKey: derive(material, "session cookie"), csrfKey: derive(material, "csrf token") };
}
