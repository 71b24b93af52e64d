/** Per-object identities and instants: each occurs once, so pooling them would only hold them longer. */
const UNIQUE_FIELDS = new Set([
  "uid", "key", "name", "resourceVersion", "createdAt", "lastChangedAt", "startedAt", "endsAt", "finishedAt", "lastTransitionTime", "lastUpdateTime", "podTemplateHash", "stableRS", "currentPodHash", "abortedAt", "firstTimestamp", "lastTimestamp", "eventTime"]);

/**
 * One copy of each string many watched Rollouts share (condition reasons and messages, step labels, router and
 * service names, images): JSON.parse and the view builders make a new copy per object. Bounded: when full it starts
 * over, which costs only sharing, never correctness.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();

  constructor(private readonly limit = 20_000) {}

  intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    if (this.strings.size >= this.limit) this.strings.clear();
    this.strings.set(value, value);
    return value;
  }

  /**
   * Replaces, in place, the shared strings of a freshly built plain value (objects and arrays, deeply; frozen ones
   * are left as they are); returns it.
   */
  internAll<T>(value: T): T {
    if (Object.isFrozen(value)) return value;
    if (Array.isArray(value)) value.forEach((item, i) => (value[i] = this.internValue(item, null)));
    else if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      for (const [field, item] of Object.entries(record)) record[field] = this.internValue(item, field);
    }
    return value;
  }

  private internValue(value: unknown, field: string | null): unknown {
    if (typeof value === "string") return field !== null && UNIQUE_FIELDS.has(field) ? value : this.intern(value);
    return typeof value === "object" && value !== null ? this.internAll(value) : value;
  }
}
