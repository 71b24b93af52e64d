import { randomUUID } from "node:crypto";
import { groupVersion, qualifiedResourceName, RESOURCE_TYPES, type ResourceType } from "../resources";
import { applyJsonPatch, applyMergePatch, PatchError } from "./patch";
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector, SelectorError } from "./selectors";

export interface ObjectMeta {
  name: string;
  namespace?: string;
  generateName?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }>;
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface StoreEvent {
  type: WatchEventType;
  resource: ResourceType;
  /** Frozen: never mutate. */
  object: KubeObject;
  resourceVersion: number;
}

export type StatusReason =
  "NotFound" | "AlreadyExists" | "Conflict" | "Invalid" | "Expired" | "BadRequest" | "MethodNotAllowed" | "UnsupportedMediaType";

/** A failure the API server reports as a `kind: Status` body with this code and reason. */
export class StoreError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: { name?: string; group?: string; kind?: string },
  ) {
    super(message);
  }
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Absent or "0": synthetic ADDED events for the current state first, then changes. */
  resourceVersion?: string;
}

export type PatchType = "merge" | "json" | "strategic";

export interface WriteOptions {
  subresource?: "status" | "scale";
  /**
   * Who writes (the API server's field manager: `?fieldManager=`, else the client's user agent up to its first "/"):
   * its `metadata.managedFields` entry for this operation and subresource is stamped with the write's time. Field
   * sets are not tracked (fieldsV1 stays empty).
   */
  manager?: string;
  /** Apply every rule but store nothing (the API server's `?dryRun=All`). */
  dryRun?: boolean;
}

interface Filter {
  namespace?: string;
  labels: ReturnType<typeof parseLabelSelector>;
  fields: ReturnType<typeof parseFieldSelector>;
}

const NAME_PATTERN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** A copy of a JSON-like value (stored objects are plain data); faster than structuredClone for small objects. */
function cloneJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = cloneJson((value as Record<string, unknown>)[key]);
  return out as T;
}

/**
 * `next` with every part equal to the same part of `prev` replaced by prev's own (frozen) one, and without
 * undefined-valued keys (what JSON drops). A write then shares what it did not change with the version before it
 * (which the watch history still holds), and an unchanged write gives `prev` itself: equality is identity after.
 */
function shareUnchanged<T>(next: T, prev: unknown): T {
  if (next === prev || typeof next !== "object" || next === null || typeof prev !== "object" || prev === null) return next;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next.map((v) => shareUnchanged(v, undefined)) as T;
    const out = next.map((v, i) => shareUnchanged(v, prev[i]));
    return (out.length === prev.length && out.every((v, i) => v === prev[i]) ? prev : out) as T;
  }
  if (Array.isArray(prev)) return next;
  const before = prev as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let same = true;
  let kept = 0;
  for (const key in next) {
    const value = (next as Record<string, unknown>)[key];
    if (value === undefined) continue;
    out[key] = shareUnchanged(value, before[key]);
    if (out[key] !== before[key]) same = false;
    kept++;
  }
  if (same) for (const key in before) if (before[key] !== undefined) kept--;
  return (same && kept === 0 ? prev : out) as T;
}

const NOT_SPEC = new Set(["metadata", "status", "apiVersion", "kind"]);

/**
 * Whether anything but metadata and status differs (a change there bumps metadata.generation); `next` went through
 * shareUnchanged with `prev`, so an unchanged part is the same object.
 */
function specChanged(next: KubeObject, prev: KubeObject): boolean {
  for (const key in next) if (!NOT_SPEC.has(key) && next[key] !== prev[key]) return true;
  for (const key in prev) if (!NOT_SPEC.has(key) && prev[key] !== undefined && !(key in next)) return true;
  return false;
}

function fieldAllowed(type: ResourceType) {
  return (path: string) =>
    path === "metadata.name" ||
    path === "metadata.namespace" ||
    (type.plural === "events" && (path.startsWith("involvedObject.") || path === "reason" || path === "type" || path === "source")) ||
    (type.plural === "pods" && (path === "status.phase" || path === "spec.nodeName"));
}

/**
 * The demo cluster's storage: objects by resource type with one cluster-wide resourceVersion counter, a bounded
 * event history for watches that resume from a resourceVersion (older ones get 410 Expired), and the API server's
 * write rules — status ignored on main-resource writes of types with a status subresource, everything but status
 * ignored on /status, generation bumped on spec changes only.
 */
export class ObjectStore {
  private revision = 0;
  private readonly objects = new Map<ResourceType, Map<string, KubeObject>>();
  /** Each type's keys in list order, kept until a create or delete changes them (a list sorted them every time). */
  private readonly sortedKeys = new Map<ResourceType, string[]>();
  private readonly history: StoreEvent[] = [];
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private oldestRetained = 1;

  constructor(private readonly options: { historyLimit?: number; now?: () => Date } = {}) {
    for (const type of RESOURCE_TYPES) this.objects.set(type, new Map());
    for (const name of ["default", "kube-system", "kube-public"]) this.ensureNamespace(name);
  }

  get resourceVersion(): string {
    return String(this.revision);
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  private bucket(type: ResourceType): Map<string, KubeObject> {
    const bucket = this.objects.get(type);
    if (!bucket) throw new StoreError(404, "NotFound", `the server could not find the requested resource (${type.plural})`);
    return bucket;
  }

  ensureNamespace(name: string): KubeObject {
    const type = RESOURCE_TYPES.find((t) => t.plural === "namespaces")!;
    const existing = this.bucket(type).get(name);
    if (existing) return existing;
    return this.create(type, undefined, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Active" },
    });
  }

  private notFound(type: ResourceType, name: string): StoreError {
    return new StoreError(404, "NotFound", `${qualifiedResourceName(type)} "${name}" not found`, {
      name,
      group: type.group,
      kind: type.plural,
    });
  }

  tryGet(type: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.bucket(type).get(objectKey(type.namespaced ? namespace : undefined, name));
  }

  get(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const obj = this.tryGet(type, namespace, name);
    if (!obj) throw this.notFound(type, name);
    return obj;
  }

  private buildFilter(type: ResourceType, opts: { namespace?: string; labelSelector?: string; fieldSelector?: string }): Filter {
    try {
      return {
        namespace: type.namespaced ? opts.namespace : undefined,
        labels: parseLabelSelector(opts.labelSelector),
        fields: parseFieldSelector(opts.fieldSelector, fieldAllowed(type)),
      };
    } catch (err) {
      if (err instanceof SelectorError) throw new StoreError(400, "BadRequest", err.message);
      throw err;
    }
  }

  private matches(filter: Filter, obj: KubeObject): boolean {
    if (filter.namespace && obj.metadata.namespace !== filter.namespace) return false;
    return matchesLabels(filter.labels, obj.metadata.labels) && matchesFields(filter.fields, obj);
  }

  list(type: ResourceType, opts: ListOptions = {}): ListResult {
    const filter = this.buildFilter(type, opts);
    const keys = this.keysInOrder(type);
    let start = 0;
    if (opts.continue) {
      let token: { k: string };
      try {
        token = JSON.parse(Buffer.from(opts.continue, "base64url").toString("utf8")) as { k: string };
      } catch {
        throw new StoreError(400, "BadRequest", "continue key is not valid: illegal base64 data");
      }
      start = keys.findIndex((k) => k > token.k);
      if (start < 0) start = keys.length;
    }
    const items: KubeObject[] = [];
    let lastKey: string | undefined;
    let index = start;
    for (; index < keys.length; index++) {
      const obj = this.bucket(type).get(keys[index])!;
      if (!this.matches(filter, obj)) continue;
      if (opts.limit && items.length >= opts.limit) break;
      items.push(obj);
      lastKey = keys[index];
    }
    const result: ListResult = { items, resourceVersion: this.resourceVersion };
    if (opts.limit && index < keys.length && lastKey !== undefined) {
      let remaining = 0;
      for (let i = index; i < keys.length; i++) if (this.matches(filter, this.bucket(type).get(keys[i])!)) remaining++;
      if (remaining > 0) {
        result.continue = Buffer.from(JSON.stringify({ k: lastKey })).toString("base64url");
        result.remainingItemCount = remaining;
      }
    }
    return result;
  }

  private keysInOrder(type: ResourceType): readonly string[] {
    let keys = this.sortedKeys.get(type);
    if (!keys) this.sortedKeys.set(type, (keys = [...this.bucket(type).keys()].sort()));
    return keys;
  }

  private record(type: ResourceType, eventType: WatchEventType, object: KubeObject): void {
    const event: StoreEvent = { type: eventType, resource: type, object, resourceVersion: this.revision };
    this.history.push(event);
    const limit = this.options.historyLimit ?? 20_000;
    // Trimmed in batches (the history may run a tenth over its limit): trimming on every write copied it each time.
    if (this.history.length > limit + Math.ceil(limit / 10)) {
      const dropped = this.history.splice(0, this.history.length - limit);
      this.oldestRetained = dropped[dropped.length - 1].resourceVersion + 1;
    }
    for (const listener of this.listeners) listener(event);
  }

  /** Forgets the event history, so every watch resuming from an older resourceVersion gets 410 Expired. */
  compact(): void {
    this.history.length = 0;
    this.oldestRetained = this.revision + 1;
  }

  private validateName(type: ResourceType, name: string | undefined): string {
    if (!name)
      throw new StoreError(422, "Invalid", `${type.kind} "" is invalid: metadata.name: Required value: name or generateName is required`);
    if (!NAME_PATTERN.test(name) || name.length > 253) {
      throw new StoreError(
        422,
        "Invalid",
        `${type.kind} "${name}" is invalid: metadata.name: Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
      );
    }
    return name;
  }

  private requireNamespace(type: ResourceType, namespace: string | undefined): void {
    if (!type.namespaced) return;
    if (!namespace) throw new StoreError(400, "BadRequest", "the namespace of the object is required");
    const nsType = RESOURCE_TYPES.find((t) => t.plural === "namespaces")!;
    if (!this.bucket(nsType).has(namespace)) {
      throw new StoreError(404, "NotFound", `namespaces "${namespace}" not found`, { name: namespace, kind: "namespaces" });
    }
  }

  create(
    type: ResourceType,
    namespace: string | undefined,
    input: KubeObject,
    opts: { dryRun?: boolean; manager?: string } = {},
  ): KubeObject {
    if (type.createOnly) throw new StoreError(405, "MethodNotAllowed", `${type.plural} are not stored`);
    const ns = type.namespaced ? (namespace ?? input.metadata?.namespace) : undefined;
    if (type.namespaced && input.metadata?.namespace && namespace && input.metadata.namespace !== namespace) {
      throw new StoreError(400, "BadRequest", "the namespace of the provided object does not match the namespace sent on the request");
    }
    this.requireNamespace(type, ns);
    const meta = input.metadata ?? ({} as ObjectMeta);
    let name = meta.name;
    if (!name && meta.generateName) name = `${meta.generateName}${randomUUID().replace(/-/g, "").slice(0, 5)}`;
    name = this.validateName(type, name);
    const key = objectKey(ns, name);
    if (this.bucket(type).has(key)) {
      throw new StoreError(409, "AlreadyExists", `${qualifiedResourceName(type)} "${name}" already exists`, {
        name,
        group: type.group,
        kind: type.plural,
      });
    }
    const obj: KubeObject = {
      ...cloneJson(input),
      apiVersion: groupVersion(type),
      kind: type.kind,
      metadata: {
        ...cloneJson(meta),
        name,
        ...(ns ? { namespace: ns } : {}),
        uid: randomUUID(),
        resourceVersion: String(this.revision + 1),
        creationTimestamp: this.now(),
        ...(type.hasGeneration ? { generation: 1 } : {}),
      },
    };
    if (opts.manager) obj.metadata.managedFields = this.stampManager(type, undefined, opts.manager, undefined);
    delete obj.metadata.deletionTimestamp;
    // Types with a status subresource drop status on create, as the API server's strategies do for CRDs.
    if (type.subresources.includes("status") && type.group !== "") delete obj.status;
    if (opts.dryRun) {
      delete obj.metadata.resourceVersion;
      return deepFreeze(obj);
    }
    this.revision++;
    deepFreeze(obj);
    this.bucket(type).set(key, obj);
    this.sortedKeys.delete(type);
    this.record(type, "ADDED", obj);
    return obj;
  }

  /**
   * Stores `next` as the new state of an existing object, applying the write rules of the target (main resource or
   * /status). Returns the unchanged stored object when nothing changed (no new resourceVersion, no watch event).
   */
  private write(type: ResourceType, current: KubeObject, next: KubeObject, opts: WriteOptions): KubeObject {
    const name = current.metadata.name;
    if (next.metadata?.name && next.metadata.name !== name) {
      throw new StoreError(
        400,
        "BadRequest",
        `the name of the object (${next.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    let merged: KubeObject;
    if (opts.subresource === "status") {
      merged = { ...current, status: next.status } as KubeObject;
      if (next.status === undefined) delete merged.status;
    } else if (opts.subresource === "scale") {
      merged = next;
    } else {
      merged = { ...next, metadata: { ...(next.metadata ?? {}), name } } as KubeObject;
      if (type.subresources.includes("status")) {
        if (current.status === undefined) delete merged.status;
        else merged.status = current.status;
      }
    }
    // Server-managed metadata survives any write.
    merged.apiVersion = current.apiVersion;
    merged.kind = current.kind;
    merged.metadata = {
      ...merged.metadata,
      name,
      uid: current.metadata.uid,
      creationTimestamp: current.metadata.creationTimestamp,
      resourceVersion: current.metadata.resourceVersion,
    };
    if (current.metadata.namespace) merged.metadata.namespace = current.metadata.namespace;
    if (type.hasGeneration) merged.metadata.generation = current.metadata.generation ?? 1;
    const stored = shareUnchanged(merged, current);
    if (stored === current) return current;
    if (type.hasGeneration && specChanged(stored, current))
      stored.metadata = { ...stored.metadata, generation: (current.metadata.generation ?? 1) + 1 };
    if (opts.manager && opts.subresource !== "scale")
      stored.metadata = {
        ...stored.metadata,
        managedFields: this.stampManager(type, current.metadata.managedFields, opts.manager, opts.subresource),
      };
    if (opts.dryRun) return deepFreeze(stored);
    this.revision++;
    stored.metadata = { ...stored.metadata, resourceVersion: String(this.revision) };
    deepFreeze(stored);
    this.bucket(type).set(objectKey(current.metadata.namespace, name), stored);
    this.record(type, "MODIFIED", stored);
    return stored;
  }

  /** managedFields with `manager`'s Update entry for this subresource stamped now (one entry per manager, operation, subresource). */
  private stampManager(type: ResourceType, entries: unknown, manager: string, subresource: string | undefined): unknown[] {
    const kept = Array.isArray(entries) ? (entries as Array<Record<string, unknown>>) : [];
    const same = (e: Record<string, unknown>) => e.manager === manager && e.operation === "Update" && e.subresource === subresource;
    const entry = {
      manager,
      operation: "Update",
      apiVersion: groupVersion(type),
      time: this.now(),
      fieldsType: "FieldsV1",
      fieldsV1: {},
      ...(subresource ? { subresource } : {}),
    };
    return [...kept.filter((e) => !same(e)), entry];
  }

  private conflict(type: ResourceType, name: string): StoreError {
    return new StoreError(
      409,
      "Conflict",
      `Operation cannot be fulfilled on ${qualifiedResourceName(type)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      { name, group: type.group, kind: type.plural },
    );
  }

  /** PUT: a resourceVersion in the body is a precondition (409 when it is not the current one). */
  replace(type: ResourceType, namespace: string | undefined, name: string, input: KubeObject, opts: WriteOptions = {}): KubeObject {
    const current = this.get(type, namespace, name);
    const expected = input.metadata?.resourceVersion;
    if (expected && expected !== current.metadata.resourceVersion) throw this.conflict(type, name);
    return this.write(type, current, cloneJson(input), opts);
  }

  patch(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    patchType: PatchType,
    patch: unknown,
    opts: WriteOptions = {},
  ): KubeObject {
    const current = this.get(type, namespace, name);
    let next: unknown;
    try {
      next = patchType === "json" ? applyJsonPatch(current, patch) : applyMergePatch(current, patch);
    } catch (err) {
      if (err instanceof PatchError) throw new StoreError(422, "Invalid", err.message);
      throw err;
    }
    if (typeof next !== "object" || next === null || Array.isArray(next)) {
      throw new StoreError(400, "BadRequest", "the patch produced an object that is not a JSON object");
    }
    const patchedRv = (next as KubeObject).metadata?.resourceVersion;
    if (patchedRv && patchedRv !== current.metadata.resourceVersion) throw this.conflict(type, name);
    return this.write(type, current, next as KubeObject, opts);
  }

  /**
   * Read-modify-write for in-process writers (the controller simulator): `mutate` gets a mutable copy and returns
   * the new object; conflicts cannot happen because the store is single-threaded. On /status only the status is a
   * copy (the write keeps nothing else): the rest of the draft is the stored, frozen object, read-only.
   */
  update(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    mutate: (draft: KubeObject) => KubeObject | void,
    opts: WriteOptions = {},
  ): KubeObject {
    const current = this.get(type, namespace, name);
    const draft = opts.subresource === "status" ? { ...current, status: cloneJson(current.status) } : cloneJson(current);
    const next = mutate(draft) ?? draft;
    return this.write(type, current, next, opts);
  }

  delete(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const current = this.get(type, namespace, name);
    this.bucket(type).delete(objectKey(current.metadata.namespace, name));
    this.sortedKeys.delete(type);
    this.revision++;
    const deleted = deepFreeze({
      ...current,
      metadata: { ...current.metadata, resourceVersion: String(this.revision) },
    } as KubeObject);
    this.record(type, "DELETED", deleted);
    return deleted;
  }

  /** Every change to every resource, in order; for in-process controllers. */
  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts a watch. Throws StoreError 410 Expired when `resourceVersion` is older than the retained history, as
   * etcd compaction makes a real API server do.
   */
  watch(type: ResourceType, opts: WatchOptions, onEvent: (event: StoreEvent) => void): () => void {
    const filter = this.buildFilter(type, opts);
    const fromRv = opts.resourceVersion && opts.resourceVersion !== "0" ? Number(opts.resourceVersion) : null;
    if (fromRv !== null && !Number.isFinite(fromRv)) {
      throw new StoreError(400, "BadRequest", `invalid resource version: ${opts.resourceVersion}`);
    }
    if (fromRv !== null && fromRv < this.oldestRetained - 1) {
      throw new StoreError(410, "Expired", `too old resource version: ${fromRv} (${this.oldestRetained - 1})`);
    }
    const pending: StoreEvent[] = [];
    if (fromRv === null) {
      for (const obj of this.list(type, opts).items) {
        pending.push({ type: "ADDED", resource: type, object: obj, resourceVersion: Number(obj.metadata.resourceVersion) });
      }
    } else {
      for (const event of this.history) {
        if (event.resourceVersion > fromRv && event.resource === type && this.matches(filter, event.object)) pending.push(event);
      }
    }
    for (const event of pending) onEvent(event);
    const listener = (event: StoreEvent) => {
      if (event.resource === type && this.matches(filter, event.object)) onEvent(event);
    };
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
