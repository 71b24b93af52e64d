import { createServer, type Server } from "node:http";
import type { DemoStack } from "./demo-stack";

/**
 * Lets Playwright workers steer the demo stack that global setup runs in its own process: stop/start a simulated
 * cluster, inject watch faults, restart the app, read a controller's transition log. Loopback only.
 */
export function startControlServer(stack: DemoStack): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      const url = new URL(req.url ?? "/", "http://control");
      const parts = url.pathname.split("/").filter(Boolean);
      if (req.method === "POST" && parts[0] === "app" && parts[1] === "restart") {
        await stack.app.restart();
        return send(200, { ok: true });
      }
      if (parts[0] === "clusters" && parts[1]) {
        const cluster = stack.sim.cluster(parts[1]);
        const op = parts[2];
        if (req.method === "POST" && op === "stop") {
          await cluster.apiServer.stop();
          return send(200, { ok: true });
        }
        if (req.method === "POST" && op === "start") {
          await cluster.apiServer.start();
          return send(200, { ok: true });
        }
        if (req.method === "POST" && op === "drop-watches") {
          cluster.apiServer.faults.dropWatches();
          return send(200, { ok: true });
        }
        if (req.method === "POST" && op === "expire-next-watch") {
          cluster.apiServer.faults.expireNextWatch();
          return send(200, { ok: true });
        }
        if (req.method === "GET" && op === "transitions") return send(200, cluster.controller.transitions.entries);
      }
      send(404, { error: "unknown control request" });
    } catch (err) {
      send(500, { error: String(err) });
    }
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}
