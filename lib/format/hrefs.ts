const enc = encodeURIComponent;

/** Page URL of one rollout's detail view. */
export function rolloutHref(cluster: string, namespace: string, name: string): string {
  return `/rollouts/${enc(cluster)}/${enc(namespace)}/${enc(name)}`;
}

/** The audit log filtered to one Rollout (the audit page keeps its filters in the URL). */
export function rolloutAuditHref(cluster: string, namespace: string, name: string): string {
  return `/audit?${new URLSearchParams({ cluster, namespace, rollout: name }).toString()}`;
}

export function clusterHref(cluster: string): string {
  return `/clusters/${enc(cluster)}`;
}

/** The overview with filters preset, e.g. `{ cluster: "prod", phase: "Paused" }` → `/?cluster=prod&phase=Paused`. */
export function overviewHref(filters: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `/?${query}` : "/";
}

/** Route params arrive percent-encoded or not depending on the router path; decoding twice must be harmless. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Page URL of one plugin across clusters: `argoproj-labs/contour` → `/plugins/argoproj-labs/contour`. */
export function pluginHref(name: string, query = ""): string {
  const path = `/plugins/${name.split("/").map(enc).join("/")}`;
  return query ? `${path}?${query}` : path;
}
