/** `kubectl argo rollouts set image ROLLOUT CONTAINER=IMAGE`: `*` sets every container's image. */
const ALL_CONTAINERS = "*";

export type SetImageSentRequest = { readonly kind: "put"; readonly target: "main"; readonly attempt: number; readonly outcome: "ok" };

export type SetImageResult =
  | {
      readonly ok: true;
      readonly rollout: Record<string, unknown>;
      readonly containers: readonly string[];
      readonly previous: readonly string[];
    }
  | { readonly ok: false; readonly message: string };

type Container = Record<string, unknown> & { name?: unknown; image?: unknown };

/**
 * The Rollout `newRolloutSetImage` (`pkg/kubectl-argo-rollouts/cmd/set/set_image.go`) sends back in its Update: a copy
 * of the object as read, with `image` replaced in every init, regular and ephemeral container of
 * `spec.template.spec` whose name is `container` (or in all of them for `*`); "unable to find container named …"
 * when none is. Everything else — resourceVersion included, so a concurrent change is a 409 — stays as read.
 */
export function setRolloutImage(rollout: Record<string, unknown>, container: string, image: string): SetImageResult {
  const copy = structuredClone(rollout) as { spec?: { template?: { spec?: Record<string, unknown> } } };
  const podSpec = copy.spec?.template?.spec;
  const changed: string[] = [];
  const previous: string[] = [];
  for (const field of ["initContainers", "containers", "ephemeralContainers"]) {
    const list = podSpec?.[field];
    if (!Array.isArray(list)) continue;
    for (const ctr of list as Container[]) {
      if (ctr.name !== container && container !== ALL_CONTAINERS) continue;
      changed.push(String(ctr.name));
      previous.push(typeof ctr.image === "string" ? ctr.image : "");
      ctr.image = image;
    }
  }
  if (changed.length === 0) return { ok: false, message: `unable to find container named "${container}"` };
  return { ok: true, rollout: copy as Record<string, unknown>, containers: changed, previous };
}

/** The names of a Rollout's containers, init and ephemeral included, in `set image`'s order (what the form offers). */
export function listTemplateContainers(rollout: {
  spec?: { template?: { spec?: Record<string, unknown> } } | null;
}): Array<{ name: string; image: string }> {
  const podSpec = rollout.spec?.template?.spec;
  return ["initContainers", "containers", "ephemeralContainers"].flatMap((field) => {
    const list = podSpec?.[field];
    return Array.isArray(list)
      ? (list as Container[]).map((c) => ({ name: String(c.name ?? ""), image: typeof c.image === "string" ? c.image : "" }))
      : [];
  });
}

/** `set image`'s retries: the Update is sent again on 409 Conflict, up to this many attempts in all. */
export const SET_IMAGE_MAX_ATTEMPTS = 5;
