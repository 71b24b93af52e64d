import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { startApiGate, type ApiGate } from "./api-gate";
import { waitReady, type Launcher } from "./control-plane";
import { startLoadGenerator, type LoadGenerator } from "./load-generator";
import { startPodNetwork, type PodNetwork } from "./pod-network";
import { startTraefik, TRAEFIK_PROVIDER } from "./traefik";

/**
 * The real cluster's data plane, all local processes on loopback: Traefik (reading the Ingresses through an API gate
 * that can cut it off), the pods' network answering for every Running pod, a bounded load generator, and a control
 * endpoint: the pods' request counts (JSON and Prometheus text) and the switch that makes the proxy stop following
 * changes. Written to `<workDir>/data-plane.json` for whoever drives the cluster from another process (the tests).
 */

export interface DataPlaneInfo {
  /** Traefik's entry point: send requests here with an Ingress rule's host. */
  proxyUrl: string;
  proxyMetricsUrl: string;
  /**
   * `GET /counts?from=<ms>&to=<ms>[&namespace=]` → requests the pods answered per pod-template hash in [from, to);
   * `GET /pods`; `GET /metrics`; `GET /router`, `POST /router/freeze` (the proxy stops following the API server:
   * it keeps serving what it last read) and `POST /router/follow`.
   */
  controlUrl: string;
  podNetworkUrl: string;
}

export interface DataPlane extends DataPlaneInfo {
  /** Starts a steady load through the proxy for one host; stopped with the data plane. */
  startLoad(host: string, ratePerSecond?: number): LoadGenerator;
  stop(): Promise<void>;
}

/** The file the cluster writes its data plane's endpoints to. */
export const DATA_PLANE_FILE = "data-plane.json";

/**
 * The PromQL templates of measured traffic through Traefik's ingress-nginx provider: it names the stable path's service
 * `<namespace>-<ingress>-<service>-<port>` and the canary's the same with `-canary` (for a numeric port).
 */
export const TRAEFIK_MEASURED_TRAFFIC = {
  canary: `sum(rate(traefik_service_requests_total{service=~"\${namespace}-\${stableIngress}-\${stableService}-[0-9]+-canary@${TRAEFIK_PROVIDER}"}[\${window}]))`,
  total: `sum(rate(traefik_service_requests_total{service=~"\${namespace}-\${stableIngress}-\${stableService}-[0-9]+(-canary)?@${TRAEFIK_PROVIDER}"}[\${window}]))`,
};

async function startControl(port: number, pods: PodNetwork, gate: ApiGate, loads: LoadGenerator[]): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? "/", "http://control");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(`${JSON.stringify(body)}\n`);
    };
    const route = `${req.method} ${url.pathname}`;
    if (route === "GET /counts") {
      const from = Number(url.searchParams.get("from"));
      const to = Number(url.searchParams.get("to"));
      if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to)
        return json(400, { error: "from and to must be times in ms, from < to" });
      const namespace = url.searchParams.get("namespace") ?? undefined;
      return json(200, { from, to, namespace: namespace ?? null, byHash: pods.countsByHash(from, to, namespace) });
    }
    if (route === "GET /pods") return json(200, pods.pods());
    if (route === "GET /router") return json(200, { following: gate.following });
    if (route === "POST /router/freeze") return (gate.freeze(), json(200, { following: gate.following }));
    if (route === "POST /router/follow") return (gate.follow(), json(200, { following: gate.following }));
    if (route === "GET /metrics") {
      const sent = loads.reduce((n, l) => n + l.sent, 0);
      const skipped = loads.reduce((n, l) => n + l.skipped, 0);
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
      return void res.end(
        `${pods.metricsText()}# TYPE rollscope_load_requests_total counter\nrollscope_load_requests_total ${sent}\n` +
          `# TYPE rollscope_load_skipped_total counter\nrollscope_load_skipped_total ${skipped}\n`,
      );
    }
    json(404, { error: `no ${route}` });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}

/** Starts the data plane (Traefik in the launcher's process group, the rest in this process). */
export async function startDataPlane(l: Launcher, traefikBinary: string, traefikToken: string): Promise<DataPlane> {
  const stoppers: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stoppers.reverse()) await s().catch(() => {});
  };
  try {
    const gate = await startApiGate(l.ports.apiGate, l.ports.apiServer);
    stoppers.push(() => gate.stop());
    const pods = await startPodNetwork(l.ports.podNetwork, l.adminKubeconfigPath);
    stoppers.push(() => pods.stop());
    const loads: LoadGenerator[] = [];
    stoppers.push(async () => void (await Promise.all(loads.map((g) => g.stop()))));
    const control = await startControl(l.ports.dataPlane, pods, gate, loads);
    stoppers.push(
      () =>
        new Promise<void>((resolve) => {
          control.closeAllConnections();
          control.close(() => resolve());
        }),
    );
    const traefik = await startTraefik(
      {
        group: l.group,
        binary: traefikBinary,
        dir: path.join(l.workDir, "traefik"),
        webPort: l.ports.proxy,
        metricsPort: l.ports.proxyMetrics,
        apiUrl: gate.url,
        caCert: l.pki.caCert,
        token: traefikToken,
        podNetworkUrl: pods.proxyUrl,
      },
      (what, check) => waitReady(l, "traefik", what, check, 60_000),
    );
    const info: DataPlaneInfo = {
      proxyUrl: traefik.url,
      proxyMetricsUrl: traefik.metricsUrl,
      controlUrl: `http://127.0.0.1:${l.ports.dataPlane}`,
      podNetworkUrl: pods.proxyUrl,
    };
    writeFileSync(path.join(l.workDir, DATA_PLANE_FILE), JSON.stringify(info, null, 2));
    return {
      ...info,
      startLoad(host, ratePerSecond) {
        const load = startLoadGenerator({ url: traefik.url, host, ratePerSecond });
        loads.push(load);
        return load;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A random bearer token for the proxy's identity. */
export const newProxyToken = () => randomBytes(24).toString("hex");
