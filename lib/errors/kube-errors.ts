import { ApiError } from "./api-error";
import { redactErrorText } from "./known-secrets";

/**
 * The HTTP status of a Kubernetes API failure, whichever client raised it: our own `kubeRequest` (`code`),
 * client-node's ApiException (`code`) or a watch error (`statusCode`). Undefined for anything else.
 */
export function kubeStatusOf(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as { code?: unknown; statusCode?: unknown };
  const code = typeof e.code === "number" ? e.code : typeof e.statusCode === "number" ? e.statusCode : undefined;
  return code !== undefined && code >= 400 && code < 600 ? code : undefined;
}

/**
 * The one translation of a Kubernetes API failure into what a route answers. `detail` is the cluster's own message
 * (it names the user and verb; it is redacted all the same); without it a generic sentence is used. Undefined when
 * `err` is not a Kubernetes API failure.
 */
export function kubeErrorToApiError(err: unknown, clusterDetail?: string): ApiError | undefined {
  const code = kubeStatusOf(err);
  if (code === undefined) return undefined;
  const detail = clusterDetail && redactErrorText(clusterDetail);
  if (code === 401 || code === 403)
    return new ApiError("forbidden", detail ? `the cluster refused: ${detail}` : "the cluster refused this request");
  if (code === 404) return new ApiError("not_found", detail ?? "not found in the cluster");
  if (code === 409)
    return new ApiError(
      "conflict",
      detail ? `the cluster reported a conflict: ${detail}` : "the object changed in the cluster; reload and retry",
    );
  if (code >= 500)
    return new ApiError("upstream_unavailable", detail ? `the cluster API failed: ${detail}` : "the cluster API is unavailable");
  return new ApiError("bad_request", detail ? `the cluster rejected the request: ${detail}` : "the cluster rejected the request");
}
