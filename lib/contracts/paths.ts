import type { RolloutRef } from "@/lib/rollouts/rollout-ref";

const enc = encodeURIComponent;

/** `?a=1&b=2` for the given parameters (empty values left out), or "" when none remain. */
export function queryString(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && String(value) !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function clusterPath(cluster: string): string {
  return `/api/clusters/${enc(cluster)}`;
}

export function rolloutPath({ cluster, namespace, name }: RolloutRef): string {
  return `${clusterPath(cluster)}/rollouts/${enc(namespace)}/${enc(name)}`;
}
