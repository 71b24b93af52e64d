import type { ResourceType } from "../resources";
import type { KubeObject, ObjectStore, WriteOptions } from "../store/object-store";

/** The field manager upstream's controller writes as (its clientset's user agent). */
const CONTROLLER_MANAGER = "rollouts-controller";

export type RequestVerb = "Create" | "Update" | "Patch" | "Delete";

export type RequestObserver = (kind: string, namespace: string, name: string, verb: RequestVerb, statusCode: string) => void;

/**
 * The controller's clientset: writes go to the store and are counted the way upstream's instrumented clientset
 * counts them (controller_clientset_k8s_request_total). Reads come from the caches (informers) and are not counted.
 */
export class K8sClient {
  constructor(
    readonly store: ObjectStore,
    private readonly observe: RequestObserver,
  ) {}

  private count(type: ResourceType, namespace: string | undefined, name: string, verb: RequestVerb, code: string): void {
    // Upstream reports no name for events and replicasets to bound cardinality.
    const shownName = type.plural === "events" || type.plural === "replicasets" ? "N/A" : name;
    this.observe(type.plural, namespace ?? "", shownName, verb, code);
  }

  create(type: ResourceType, namespace: string | undefined, obj: KubeObject): KubeObject {
    const created = this.store.create(type, namespace, obj, { manager: CONTROLLER_MANAGER });
    this.count(type, namespace, created.metadata.name, "Create", "201");
    return created;
  }

  /** Read-modify-write; counted only when it changed something (upstream skips no-op patches). */
  update(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    mutate: (draft: KubeObject) => KubeObject | void,
    opts: WriteOptions & { verb?: RequestVerb } = {},
  ): KubeObject {
    const before = this.store.get(type, namespace, name);
    const after = this.store.update(type, namespace, name, mutate, { manager: CONTROLLER_MANAGER, ...opts });
    if (after !== before) this.count(type, namespace, name, opts.verb ?? "Update", "200");
    return after;
  }

  delete(type: ResourceType, namespace: string | undefined, name: string): void {
    if (!this.store.tryGet(type, namespace, name)) return;
    this.store.delete(type, namespace, name);
    this.count(type, namespace, name, "Delete", "200");
  }
}
