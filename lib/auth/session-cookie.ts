import "server-only";
import { EncryptJWT, jwtDecrypt } from "jose";
import { z } from "zod";

/**
 * What the session cookie holds: the id of the server-side session (table Session, with the user and groups taken
 * from the ID token at sign-in). No tokens are kept.
 */
export const SessionClaims = z.object({
  sid: z.string().min(1),
});
export type SessionClaims = z.infer<typeof SessionClaims>;

/** The in-flight sign-in: PKCE verifier, state and nonce, and where to go afterwards. */
export const SignInClaims = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(1),
  returnTo: z.string(),
});
export type SignInClaims = z.infer<typeof SignInClaims>;

const ISSUER = "rollscope";

/** Encrypts claims into a compact JWE (dir + A256GCM): the browser can neither read nor alter it. */
export async function sealCookie(claims: Record<string, unknown>, audience: string, key: Uint8Array, ttlSeconds: number): Promise<string> {
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .encrypt(key);
}

/** The claims of a sealed cookie, or undefined when it is missing, expired, for another audience or tampered with. */
export async function openCookie<T>(
  value: string | undefined,
  audience: string,
  key: Uint8Array,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  if (!value) return undefined;
  try {
    const { payload } = await jwtDecrypt(value, key, { issuer: ISSUER, audience });
    const parsed = schema.safeParse(payload);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
