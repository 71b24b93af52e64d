/**
 * Per-object identities and instants: each occurs once, so pooling them would only hold them longer. Condition and
 * event times have a one-second resolution and many objects change in the same second, so those are pooled.
 */
const UNIQUE_FIELDS = new Set([
  "uid",
  "key",
  "name",
  "resourceVersion",
  "lastChangedAt",
  "podTemplateHash",
  "stableRS",
  "currentPodHash",
  "actionFingerprint",
  "href",
]);

/**
 * A nested value holding one of these names an object or an instant, so it is rarely the same twice (a router or a
 * step plugin is named only by `name`): sharing it would only add its signature to the pool.
 */
const TIME_FIELDS = [
  "createdAt",
  "creationTimestamp",
  "startedAt",
  "endsAt",
  "finishedAt",
  "lastTransitionTime",
  "lastUpdateTime",
  "abortedAt",
  "firstTimestamp",
  "lastTimestamp",
  "eventTime",
];
const IDENTITY_FIELDS = new Set([...UNIQUE_FIELDS, ...TIME_FIELDS, "namespace"].filter((field) => field !== "name"));

/** Shared by every kept value that holds an empty array (frozen, so no holder can change another's). */
const EMPTY_ARRAY: readonly never[] = Object.freeze([]);

type Plain = Record<string, unknown> | unknown[];

/**
 * One copy of each string many watched Rollouts share (condition reasons and messages, step labels, router and
 * service names, images, times), and one frozen copy of each small nested value many share (a step, a router, a
 * condition, an empty list): JSON.parse and the view builders make a new copy per object. Bounded: when full it
 * starts over, which costs only sharing, never correctness.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();
  private readonly values = new Map<string, Plain>();
  /** The token each shared value stands for in its parents' signatures (never reused: the counter only grows). */
  private readonly ids = new WeakMap<Plain, string>();
  private nextId = 0;

  constructor(private readonly limit = 20_000) {}

  intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    if (this.strings.size >= this.limit) this.strings.clear();
    // A copy of its own: the built string may be a chain of parts (a template literal's) or a slice of a larger one.
    const flat = flatCopy(value);
    this.strings.set(flat, flat);
    return flat;
  }

  /**
   * Replaces, in place, the shared strings of a freshly built plain value (objects and arrays, deeply; frozen ones
   * are left as they are) and its nested values that hold no identity or instant of their own by a shared frozen
   * copy; returns it (the value itself is never replaced, so it stays the caller's to change).
   *
   * `previous`: the kept value this one replaces (the same Rollout's view before an update). What did not change is
   * taken from it (its strings, its shared values) by comparison alone, without the pool's lookups and signatures:
   * most of an update's value is as it was.
   */
  internAll<T>(value: T, previous?: T): T {
    if (value !== null && typeof value === "object" && !Object.isFrozen(value)) this.internChildren(value as Plain, previous);
    return value;
  }

  /** Interns every child of `value` in place; true when the value holds only primitives and shared frozen values. */
  private internChildren(value: Plain, previous: unknown): boolean {
    const before = previous !== null && typeof previous === "object" ? (previous as Record<string, unknown>) : undefined;
    let shareable = true;
    if (Array.isArray(value)) {
      const items = Array.isArray(before) ? before : undefined;
      for (let i = 0; i < value.length; i++) {
        // Always written back: an equal string compares equal to the fresh one it replaces.
        const next = this.internValue(value[i], null, items?.[i]);
        value[i] = next;
        shareable &&= isShareable(next);
      }
    } else {
      const kept = before !== undefined && !Array.isArray(before) ? before : undefined;
      const fields = Object.keys(value);
      for (let i = 0; i < fields.length; i++) {
        const field = fields[i];
        const next = this.internValue(value[field], field, kept !== undefined && Object.hasOwn(kept, field) ? kept[field] : undefined);
        value[field] = next;
        shareable &&= !IDENTITY_FIELDS.has(field) && isShareable(next);
      }
    }
    return shareable;
  }

  /** `previous`: what the value's parent held in its place before (undefined when nothing). */
  private internValue(value: unknown, field: string | null, previous: unknown): unknown {
    if (typeof value === "string") {
      // The kept copy is already flat (and the pool's, where pooled).
      if (value === previous) return previous;
      return field !== null && UNIQUE_FIELDS.has(field) ? value : this.intern(value);
    }
    if (!isPlain(value)) return value;
    if (Array.isArray(value) && value.length === 0) return EMPTY_ARRAY;
    if (!this.internChildren(value, previous)) return value;
    // Unchanged: the shared copy it had (frozen, so no holder changed it since).
    if (isFrozenPlain(previous) && sameChildren(value, previous as Plain)) return previous;
    return this.shared(value);
  }

  /** The pool's frozen copy of a value whose children are all primitives or shared. */
  private shared(value: Plain): Plain {
    const signature = this.signature(value);
    if (signature === null) return value;
    const known = this.values.get(signature);
    if (known !== undefined) return known;
    if (this.values.size >= this.limit) this.values.clear();
    Object.freeze(value);
    this.values.set(flatCopy(signature), value);
    this.ids.set(value, `#${this.nextId++}`);
    return value;
  }

  /**
   * What tells a value apart from every other, built from its children's tokens (a shared child by its id, so the
   * cost does not grow with depth: the JSON of each nested value cost most of a Rollout update's interning); null
   * when a child is a frozen value the pool did not share (it is then not shared either).
   */
  private signature(value: Plain): string | null {
    let signature = Array.isArray(value) ? "[" : "{";
    if (Array.isArray(value)) {
      for (const item of value) {
        const token = this.token(item);
        if (token === null) return null;
        signature += `${token},`;
      }
    } else {
      for (const field in value) {
        if (!Object.hasOwn(value, field)) continue;
        const token = this.token(value[field]);
        if (token === null) return null;
        signature += `${JSON.stringify(field)}:${token},`;
      }
    }
    return signature;
  }

  /** A child's token: one per distinct primitive (undefined, NaN and null apart), a shared value's id. */
  private token(value: unknown): string | null {
    switch (typeof value) {
      case "string":
        return JSON.stringify(value);
      case "number":
        return `n${value}`;
      case "boolean":
        return value ? "t" : "f";
      case "undefined":
        return "u";
      case "bigint":
        return `b${value}`;
      default:
        if (value === null) return "l";
        if (value === EMPTY_ARRAY) return "[]";
        // A value frozen elsewhere (a builder's shared constant): told apart by its content.
        return this.ids.get(value as Plain) ?? (isFrozenPlain(value) ? `j${JSON.stringify(value, distinctJson)}` : null);
    }
  }
}

/** A not yet frozen plain object or array (not a Map, a Date or a class instance, whose JSON does not tell them apart). */
function isPlain(value: unknown): value is Plain {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

function isFrozenPlain(value: unknown): boolean {
  if (value === null || typeof value !== "object" || !Object.isFrozen(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/** JSON that tells apart what plain JSON writes alike (an absent field and `undefined`, NaN and null). */
function distinctJson(_field: string, value: unknown): unknown {
  if (value === undefined) return "\u0000undefined";
  return typeof value === "number" && !Number.isFinite(value) ? `\u0000${value}` : value;
}

/** Whether two plain values hold the very same children (the same values, under the same fields in the same order). */
function sameChildren(value: Plain, other: Plain): boolean {
  if (Array.isArray(value) || Array.isArray(other)) {
    if (!Array.isArray(value) || !Array.isArray(other) || value.length !== other.length) return false;
    for (let i = 0; i < value.length; i++) if (!Object.is(value[i], other[i])) return false;
    return true;
  }
  const fields = Object.keys(value);
  const otherFields = Object.keys(other);
  if (fields.length !== otherFields.length) return false;
  for (let i = 0; i < fields.length; i++) {
    if (fields[i] !== otherFields[i] || !Object.is(value[fields[i]], other[fields[i]])) return false;
  }
  return true;
}

function isShareable(value: unknown): boolean {
  return value === null || typeof value !== "object" || Object.isFrozen(value);
}

/** A flat copy of a string (V8 keeps concatenations as chains of their parts and slices as views of the whole). */
function flatCopy(value: string): string {
  return value.length < 13 ? value : (JSON.parse(JSON.stringify(value)) as string);
}
