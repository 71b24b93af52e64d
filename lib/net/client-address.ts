const MAX_ENTRY = 64;

/** An X-Forwarded-For entry as recorded: printable address characters only, and short. */
function cleanEntry(entry: string): string {
  const cleaned = entry.replace(/[^0-9A-Za-z.:[\]_-]/g, "").slice(0, MAX_ENTRY);
  return cleaned || "unknown";
}

/**
 * The client of a request as the audit log records it: the TCP peer, or, when the peer is a trusted proxy,
 * `<client> via <peer>`, where the client is the right-most X-Forwarded-For entry that is not itself a trusted proxy.
 * Each proxy appends the address it received from, so only entries right of the first untrusted hop are
 * trustworthy; the left-most entry is whatever the client sent. Null when the peer is unknown.
 */
export function describeClientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  isTrustedProxy: (address: string) => boolean,
): string | null {
  if (peer === undefined) return null;
  if (!forwardedFor || !isTrustedProxy(peer)) return peer;
  const hops = forwardedFor
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  let client: string | undefined;
  for (let i = hops.length - 1; i >= 0; i--) {
    client = hops[i];
    if (!isTrustedProxy(client)) break;
  }
  return client === undefined ? peer : `${cleanEntry(client)} via ${peer}`;
}
