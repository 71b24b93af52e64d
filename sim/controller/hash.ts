import { fnv32a } from "./prng";

/** k8s.io/apimachinery/pkg/util/rand.SafeEncodeString's alphabet: no vowels, no look-alike digits. */
const SAFE_ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

export function safeEncodeString(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) out += SAFE_ALPHANUMS[text.charCodeAt(i) % SAFE_ALPHANUMS.length];
  return out;
}

/** JSON with sorted keys, so equal objects hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Like upstream `hash.ComputePodTemplateHash`: FNV-32a of the template (plus the collision count), decimal,
 * safe-encoded — the `rollouts-pod-template-hash` label value and the ReplicaSet name suffix.
 */
export function computePodTemplateHash(template: unknown, collisionCount?: number): string {
  const suffix = collisionCount ? `#${collisionCount}` : "";
  return safeEncodeString(String(fnv32a(memoJson(template) + suffix)));
}

/** Stored objects are frozen and replaced on every write, so a canonical form can be cached per object. */
const jsonCache = new WeakMap<object, string>();

function memoJson(value: unknown): string {
  if (typeof value !== "object" || value === null || !Object.isFrozen(value)) return canonicalJson(value);
  let json = jsonCache.get(value);
  if (json === undefined) {
    json = canonicalJson(value);
    jsonCache.set(value, json);
  }
  return json;
}

/** Like upstream `conditions.ComputeStepHash`: the steps list hashed the same way. */
export function computeStepHash(steps: unknown): string {
  return safeEncodeString(String(fnv32a(memoJson(steps ?? []))));
}

/** A random-looking lowercase suffix (pod names, event names) drawn from the seeded stream. */
export function randomSuffix(next: () => number, length = 5): string {
  let out = "";
  for (let i = 0; i < length; i++) out += SAFE_ALPHANUMS[Math.floor(next() * SAFE_ALPHANUMS.length)];
  return out;
}
