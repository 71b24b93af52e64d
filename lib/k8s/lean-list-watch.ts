import "server-only";
import type { KubernetesListObject, KubernetesObject, Watch } from "@kubernetes/client-node";

/** What the list-watch remembers of an object: where it is and its version, never its content. */
export interface ObjectStub {
  metadata: { namespace?: string; name?: string; resourceVersion?: string };
}

export interface LeanListWatchOptions<T extends KubernetesObject> {
  path: string;
  watch: Watch;
  list: () => Promise<KubernetesListObject<T>>;
  fieldSelector?: string;
  onUpsert: (obj: T) => void;
  /** The object as the watch delivered it, or its stub when a relist no longer lists it. */
  onDelete: (obj: T | ObjectStub) => void;
  onError: (err: unknown) => void;
}

/** `namespace/name`, joined into one flat string (a template literal keeps its parts alive in every kept key). */
function keyOf(obj: KubernetesObject): string {
  return [obj.metadata?.namespace ?? "", obj.metadata?.name ?? ""].join("/");
}

/** The stub of a kept key (names and namespaces hold no "/"). */
function stubOf(key: string, resourceVersion: string): ObjectStub {
  const [namespace, name] = key.split("/");
  return { metadata: { namespace: namespace || undefined, name, resourceVersion } };
}

function isGone(err: unknown): boolean {
  const e = err as { statusCode?: number; code?: number } | null;
  return e?.statusCode === 410 || e?.code === 410;
}

/**
 * client-node's `ListWatch` (list, then watch from the list's resourceVersion; relist after 410 Gone, reporting what
 * disappeared meanwhile as deleted) without its object cache: it keeps each object's key and resourceVersion only,
 * so the caller's projection is the one copy of what a cluster holds.
 */
export class LeanListWatch<T extends KubernetesObject> {
  /** `namespace/name` → resourceVersion of every object the watch holds. */
  private readonly versions = new Map<string, string>();
  private resourceVersion = "";
  private request: AbortController | undefined;
  private stopped = false;

  constructor(private readonly opts: LeanListWatchOptions<T>) {}

  /** Resolves once the watch request has its response headers (or has failed, reported through onError). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.restart(null);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort();
  }

  private abort(): void {
    this.request?.abort();
    this.request = undefined;
  }

  private async restart(err: unknown): Promise<void> {
    this.abort();
    if (err && isGone(err)) this.resourceVersion = "";
    else if (err) return this.opts.onError(err);
    if (this.stopped) return;
    if (!this.resourceVersion) {
      let list: KubernetesListObject<T>;
      try {
        list = await this.opts.list();
      } catch (listError) {
        return this.opts.onError(listError);
      }
      this.replaceAll(list.items ?? []);
      this.resourceVersion = list.metadata?.resourceVersion ?? "";
    }
    const query = { resourceVersion: this.resourceVersion, fieldSelector: this.opts.fieldSelector };
    this.request = await this.opts.watch.watch(this.opts.path, query, (phase: string, obj: T) => this.onEvent(phase, obj), (done: unknown) => void this.restart(done));
  }

  private onEvent(phase: string, obj: T): void {
    if (phase === "ERROR") {
      if ((obj as { code?: number }).code === 410) this.resourceVersion = "";
      return;
    }
    if (phase === "ADDED" || phase === "MODIFIED") this.upsert(obj);
    else if (phase === "DELETED" && this.versions.delete(keyOf(obj))) this.opts.onDelete(obj);
    this.resourceVersion = obj.metadata?.resourceVersion ?? "";
  }

  private upsert(obj: T): void {
    const key = keyOf(obj);
    const version = obj.metadata?.resourceVersion ?? "";
    if (this.versions.get(key) === version) return;
    this.versions.set(key, version);
    this.opts.onUpsert(obj);
  }

  /** A fresh list: what it no longer holds was deleted meanwhile; the rest is upserted. */
  private replaceAll(items: readonly T[]): void {
    const listed = new Set(items.map(keyOf));
    for (const [key, version] of this.versions) {
      if (listed.has(key)) continue;
      this.versions.delete(key);
      this.opts.onDelete(stubOf(key, version));
    }
    for (const item of items) this.upsert(item);
  }
}
