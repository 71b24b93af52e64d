export const REDACTED = "[redacted]";

/** Shorter known values are not scrubbed: they would blank ordinary words of the message. */
const MIN_SECRET_LENGTH = 4;

const SECRET_KEY = String.raw`[\w-]*(?:token|secret|password|passwd|api[_-]?key|access[_-]?key|client[_-]?key)[\w-]*`;
/** A credential after `Bearer`/`Basic`: with a digit or `=` (as tokens have), or long; not an ordinary word. */
const CREDENTIAL_VALUE = String.raw`(?:(?=[\w.~+/=-]*[\d=])[\w.~+/=-]{4,}|[\w.~+/=-]{20,})`;

/** Shapes a credential takes in error text, whoever wrote it; each keeps the label and drops the value. */
const SECRET_SHAPES: ReadonlyArray<readonly [RegExp, string]> = [
  // https://user:password@host → https://[redacted]@host (the user name can be a key too)
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]+@/gi, `$1${REDACTED}@`],
  [new RegExp(String.raw`\b(bearer|basic)(\s+)${CREDENTIAL_VALUE}`, "gi"), `$1$2${REDACTED}`],
  // token=…, ?access_token=…, password = …
  [new RegExp(String.raw`\b(${SECRET_KEY})(\s*=\s*)[^\s"'&,;]+`, "gi"), `$1$2${REDACTED}`],
  // "token": "…" in echoed JSON
  [new RegExp(String.raw`("${SECRET_KEY}"\s*:\s*")[^"]*"`, "gi"), `$1${REDACTED}"`],
  // a JSON Web Token anywhere
  [/\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*/g, REDACTED],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
];

/** The forms a known value can appear in: as is, and percent-encoded as in a URL. */
function spellingsOf(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return encoded === secret ? [secret] : [secret, encoded];
}

/**
 * Error text made safe to leave the server: credential-shaped parts (URL user-info, bearer and basic values,
 * `token=…`, JSON secret fields, JWTs, private keys) and every occurrence of a known secret value are replaced by
 * `[redacted]`. Known values come from the configuration (kubeconfig tokens, passwords, key data, Prometheus auth).
 */
export function redactSecrets(text: string, knownSecrets: Iterable<string> = []): string {
  let out = text;
  const values = [...knownSecrets].filter((s) => s.length >= MIN_SECRET_LENGTH).flatMap(spellingsOf);
  // Longest first, so a secret that contains another is replaced whole.
  for (const value of values.sort((a, b) => b.length - a.length)) out = out.split(value).join(REDACTED);
  for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
  return out;
}
