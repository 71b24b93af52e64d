import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { ApiPath, ApiRoute } from "./routes";

const enc = encodeURIComponent;

/** `url`, as the address of `route` (written next to it, so a builder's URL and route are read together). */
export function apiPath<R extends ApiRoute>(_route: R, url: string): ApiPath<R> {
  return url as ApiPath<R>;
}

/** `?a=1&b=2` for the given parameters (empty values left out), or "" when none remain. */
export function queryString(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && String(value) !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function clusterPath(cluster: string) {
  return apiPath("GET /api/clusters/[cluster]", `/api/clusters/${enc(cluster)}`);
}

export function rolloutPath({ cluster, namespace, name }: RolloutRef) {
  return apiPath(
    "GET /api/clusters/[cluster]/rollouts/[namespace]/[name]",
    `${clusterPath(cluster)}/rollouts/${enc(namespace)}/${enc(name)}`,
  );
}
