import { queryBool } from "./http-io";
import { badRequest } from "./status";

export interface ResourceRequestInfo {
  isResourceRequest: true;
  verb: string;
  apiPrefix: "api" | "apis";
  group: string;
  version: string;
  /** "" for cluster-scoped and all-namespaces requests. A Namespace object's own name counts as its namespace, as in Kubernetes. */
  namespace: string;
  resource: string;
  name: string;
  subresource: string;
  /** The still-encoded path after the subresource (`/api/v1/query` for a service proxy request). */
  rawSubpath: string;
}

export interface NonResourceRequestInfo {
  isResourceRequest: false;
  verb: string;
  path: string;
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

const METHOD_VERBS: Record<string, string> = { POST: "create", PUT: "update", PATCH: "patch", DELETE: "delete" };

/** Subresources of a Namespace that the path `/namespaces/{name}/{sub}` names (anything else is a namespaced resource). */
const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`malformed path segment "${segment}"`);
  }
}

/** apiserver's RequestInfoFactory: turns a URL and method into verb, group, version, namespace, resource, name. */
export function parseRequestInfo(method: string, url: URL): RequestInfo {
  // Each non-empty path segment with the index just past its end in the raw (still-encoded) pathname.
  const segments: Array<{ text: string; end: number }> = [];
  for (const match of url.pathname.matchAll(/[^/]+/g)) segments.push({ text: match[0], end: match.index + match[0].length });
  const nonResource: NonResourceRequestInfo = {
    isResourceRequest: false,
    verb: method === "GET" || method === "HEAD" ? "get" : (METHOD_VERBS[method] ?? method.toLowerCase()),
    path: url.pathname,
  };
  const prefix = segments[0]?.text;
  let index: number;
  let group = "";
  let version: string;
  if (prefix === "api" && segments.length >= 3) {
    version = segments[1].text;
    index = 2;
  } else if (prefix === "apis" && segments.length >= 4) {
    group = segments[1].text;
    version = segments[2].text;
    index = 3;
  } else {
    return nonResource;
  }
  const at = (i: number) => segments[i]?.text;
  let verb = nonResource.verb;
  // The deprecated /watch/ path prefix.
  if (at(index) === "watch") {
    verb = "watch";
    index++;
  }
  let namespace = "";
  if (at(index) === "namespaces" && at(index + 1) !== undefined) {
    namespace = decodeSegment(at(index + 1)!);
    const next = at(index + 2);
    if (next !== undefined && !NAMESPACE_SUBRESOURCES.has(next)) index += 2;
  }
  const resource = at(index) ?? "";
  const name = at(index + 1) !== undefined ? decodeSegment(at(index + 1)!) : "";
  const subresource = at(index + 2) ?? "";
  const rawSubpath = subresource ? url.pathname.slice(segments[index + 2].end) : "";

  if (verb !== "watch") {
    if (method === "GET" || method === "HEAD") verb = name ? "get" : "list";
    else if (method === "DELETE") verb = name ? "delete" : "deletecollection";
    if (verb === "list" && queryBool(url.searchParams.get("watch"))) verb = "watch";
  }
  return {
    isResourceRequest: true,
    verb,
    apiPrefix: prefix,
    group,
    version,
    namespace,
    resource,
    name,
    subresource,
    rawSubpath,
  };
}
