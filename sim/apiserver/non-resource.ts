import type { IncomingMessage, ServerResponse } from "node:http";
import {
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroupDocument,
  apiGroupList,
  apiResourceList,
  apiVersions,
  hasGroupVersion,
  SERVER_VERSION,
} from "./discovery";
import { aggregatedDiscoveryVersion, parseAccept } from "./http-io";
import { openApiV3 } from "./openapi";
import { methodNotAllowed, notFoundPath, sendJson } from "./status";

const HEALTH = /^\/(healthz|livez|readyz)(\/[\w-]+)?\/?$/;

/** Paths answered even without credentials, as system:public-info-viewer allows anonymous users. */
export function isAnonymousPath(path: string): boolean {
  return HEALTH.test(path) || path === "/version" || path === "/version/";
}

/** Serves /version, health checks, discovery (/api, /api/v1, /apis, /apis/{group}[/{version}]) and /openapi/v3. */
export function serveNonResource(req: IncomingMessage, res: ServerResponse, path: string, serverAddress: string): void {
  if (req.method !== "GET" && req.method !== "HEAD") throw methodNotAllowed();
  if (HEALTH.test(path)) {
    res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" });
    res.end("ok");
    return;
  }
  if (path === "/version" || path === "/version/") return sendJson(res, 200, SERVER_VERSION);
  const parts = path.split("/").filter(Boolean);
  const aggregated = aggregatedDiscoveryVersion(parseAccept(req.headers.accept));
  const vary = { Vary: "Accept" };
  if (parts[0] === "api" && parts.length === 1) {
    if (aggregated)
      return sendJson(res, 200, aggregatedDiscovery("api", aggregated), { ...vary, "Content-Type": aggregatedContentType(aggregated) });
    return sendJson(res, 200, apiVersions(serverAddress), vary);
  }
  if (parts[0] === "api" && parts.length === 2 && parts[1] === "v1") return sendJson(res, 200, apiResourceList("", "v1"));
  if (parts[0] === "apis" && parts.length === 1) {
    if (aggregated)
      return sendJson(res, 200, aggregatedDiscovery("apis", aggregated), { ...vary, "Content-Type": aggregatedContentType(aggregated) });
    return sendJson(res, 200, apiGroupList(), vary);
  }
  if (parts[0] === "apis" && parts.length === 2) {
    const doc = apiGroupDocument(parts[1]);
    if (doc) return sendJson(res, 200, doc);
  }
  if (parts[0] === "apis" && parts.length === 3 && hasGroupVersion(parts[1], parts[2])) {
    return sendJson(res, 200, apiResourceList(parts[1], parts[2]));
  }
  if (parts[0] === "openapi" && parts[1] === "v3") {
    const doc = openApiV3(path);
    if (doc) return sendJson(res, 200, doc);
  }
  throw notFoundPath();
}
