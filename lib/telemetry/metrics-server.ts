import "server-only";
import http, { type Server } from "node:http";
import { metrics } from "./metrics-registry";

/** `host:port` → the parts `listen` takes (an IPv6 host in brackets). */
function parseListenAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(":");
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, "$1");
  return { host, port: Number(address.slice(at + 1)) };
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found: GET /metrics\n");
    return;
  }
  try {
    const { registry } = metrics();
    const body = await registry.metrics();
    res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : body);
  } catch (err) {
    console.error("metrics: could not render the metrics", err);
    res.writeHead(500, { "content-type": "text/plain" }).end("the metrics could not be rendered\n");
  }
}

/**
 * GET /metrics in Prometheus's text format on a listener of its own (server.metricsListen), not on the pages' port:
 * Prometheus scrapes a Pod by its IP, which the pages' Host check refuses, and cannot sign in. Its labels carry no
 * credential, user or path (see metrics-registry), so it needs no sign-in; keep the port cluster-internal.
 */
export function startMetricsServer(address: string): Promise<Server> {
  const { host, port } = parseListenAddress(address);
  const server = http.createServer((req, res) => void answer(req, res));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}
