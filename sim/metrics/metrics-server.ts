import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import { renderMetrics } from "./render-metrics";

export interface MetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves a registry on `/metrics` (and `/healthz`) on loopback, as the controller serves :8090/metrics. */
export async function startMetricsServer(registry: Registry, host = "127.0.0.1", port = 0): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/metrics") {
      renderMetrics(registry)
        .then((body) => {
          res.writeHead(200, { "Content-Type": registry.contentType });
          res.end(body);
        })
        .catch((err: unknown) => {
          res.writeHead(500, { "Content-Type": "text/plain" });
          res.end(String(err));
        });
      return;
    }
    if (path === "/healthz") {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("ok");
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("404 page not found\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${actual}/metrics`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
