import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { logger } from "@/lib/log/logger";
import { metrics, secondsSince } from "@/lib/telemetry/metrics-registry";
import { routeOf } from "@/lib/telemetry/route-pattern";

/** Routes asked for all the time by machines (assets, probes): logged at debug, still timed. */
const QUIET_ROUTES = new Set(["/_next/static", "/api/healthz", "/api/readyz"]);

/**
 * When the response ends (or the client goes away): one observation of rollscope_http_request_duration_seconds by
 * route pattern and status, and one access-log line. The line names the path without its query (a query may carry
 * a token) and never a header.
 */
export function observeRequest(req: IncomingMessage, res: ServerResponse, requestId: string): void {
  const startedAt = performance.now();
  res.setHeader("x-request-id", requestId);
  res.once("close", () => {
    const seconds = secondsSince(startedAt);
    const path = (req.url ?? "/").split("?")[0];
    const route = routeOf(path);
    const method = req.method ?? "GET";
    const status = res.writableFinished ? res.statusCode : 499;
    metrics().httpRequestDuration.observe({ method, route, status: String(status) }, seconds);
    const line = { reqId: requestId, method, path, route, status, durationMs: Math.round(seconds * 1000) };
    if (QUIET_ROUTES.has(route)) logger().debug(line, "request");
    else logger().info(line, "request");
  });
}
