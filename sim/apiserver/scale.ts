import { qualifiedResourceName, type ResourceType } from "../resources";
import type { KubeObject, ObjectStore } from "../store/object-store";
import { applyJsonPatch, applyMergePatch, PatchError } from "../store/patch";
import { isObject } from "./http-io";
import { ApiError } from "./status";

export interface Scale {
  kind: "Scale";
  apiVersion: "autoscaling/v1";
  metadata: Record<string, unknown>;
  spec: { replicas: number };
  status: { replicas: number; selector?: string };
}

function formatLabelSelector(selector: unknown): string | undefined {
  if (!isObject(selector)) return undefined;
  const parts: string[] = [];
  if (isObject(selector.matchLabels)) for (const [k, v] of Object.entries(selector.matchLabels)) parts.push(`${k}=${String(v)}`);
  if (Array.isArray(selector.matchExpressions)) {
    for (const e of selector.matchExpressions as Array<{ key: string; operator: string; values?: string[] }>) {
      const op = e.operator.toLowerCase();
      if (op === "exists") parts.push(e.key);
      else if (op === "doesnotexist") parts.push(`!${e.key}`);
      else parts.push(`${e.key} ${op} (${(e.values ?? []).join(",")})`);
    }
  }
  return parts.length > 0 ? parts.join(",") : undefined;
}

function num(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

/**
 * The autoscaling/v1 Scale view. Rollouts follow their CRD's scale subresource (specReplicasPath .spec.replicas,
 * statusReplicasPath .status.HPAReplicas, labelSelectorPath .status.selector); ReplicaSets the built-in one.
 */
export function toScale(type: ResourceType, obj: KubeObject): Scale {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const status = isObject(obj.status) ? obj.status : {};
  const builtIn = type.group === "apps";
  const selector = builtIn ? formatLabelSelector(spec.selector) : typeof status.selector === "string" ? status.selector : undefined;
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: num(spec.replicas) },
    status: { replicas: num(builtIn ? status.replicas : status.HPAReplicas), ...(selector ? { selector } : {}) },
  };
}

function invalidReplicas(name: string, value: unknown): ApiError {
  return new ApiError(
    422,
    "Invalid",
    `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(value ?? null)}: must be greater than or equal to 0`,
    {
      name,
      group: "autoscaling",
      kind: "Scale",
    },
  );
}

/** Writes a new Scale (from PUT, or a patch of the current Scale) through to the object's spec.replicas. */
export function writeScale(
  store: ObjectStore,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  next: unknown,
  dryRun: boolean,
): Scale {
  const current = store.get(type, namespace, name);
  if (!isObject(next)) throw new ApiError(400, "BadRequest", "the body of the request must be a Scale object");
  const meta = isObject(next.metadata) ? next.metadata : {};
  if (typeof meta.resourceVersion === "string" && meta.resourceVersion && meta.resourceVersion !== current.metadata.resourceVersion) {
    throw new ApiError(
      409,
      "Conflict",
      `Operation cannot be fulfilled on ${qualifiedResourceName(type)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      { name, group: type.group, kind: type.plural },
    );
  }
  const replicas = isObject(next.spec) ? next.spec.replicas : undefined;
  if (typeof replicas !== "number" || !Number.isInteger(replicas) || replicas < 0) throw invalidReplicas(name, replicas);
  const updated = store.update(
    type,
    namespace,
    name,
    (draft) => {
      draft.spec = { ...(isObject(draft.spec) ? draft.spec : {}), replicas };
    },
    { dryRun },
  );
  return toScale(type, updated);
}

export function patchScale(current: Scale, patchType: "merge" | "json", patch: unknown): unknown {
  try {
    return patchType === "json" ? applyJsonPatch(current, patch) : applyMergePatch(current, patch);
  } catch (err) {
    if (err instanceof PatchError) throw new ApiError(422, "Invalid", err.message);
    throw err;
  }
}
