import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { httpGet } from "./net";
import type { ProcessGroup } from "./processes";

/**
 * Traefik as the real cluster's ingress proxy. Its kubernetesIngressNGINX provider reads Ingresses of class `nginx`
 * with ingress-nginx's annotations, among them the canary Ingress upstream's sample router plugin keeps at the canary
 * weight: `nginx.ingress.kubernetes.io/canary: "true"` + `canary-weight: "<w>"` becomes a weighted round robin of
 * `<ns>-<stable service>-<port>` (100 − w) and `<ns>-<stable service>-<port>-canary` (w) — Traefik v3.7's
 * pkg/provider/kubernetes/ingress-nginx build.go and translator.go, tested by its `ingresses-with-canary-weight`
 * fixture. Its Prometheus metrics count requests per service: `traefik_service_requests_total{service=…}`.
 */

/** The provider's name, the suffix of every service it configures. */
export const TRAEFIK_PROVIDER = "kubernetesingressnginx";

export interface TraefikOptions {
  group: ProcessGroup;
  binary: string;
  dir: string;
  webPort: number;
  metricsPort: number;
  /** Where it reaches the API server (the API gate). */
  apiUrl: string;
  caCert: string;
  token: string;
  /** The pods' network (its SOCKS5 proxy). */
  podNetworkUrl: string;
}

export interface RunningTraefik {
  url: string;
  metricsUrl: string;
}

function traefikStaticConfig(o: Pick<TraefikOptions, "webPort" | "metricsPort" | "apiUrl" | "caCert">, tokenFile: string): string {
  return stringify({
    global: { checkNewVersion: false, sendAnonymousUsage: false },
    entryPoints: { web: { address: `127.0.0.1:${o.webPort}` }, metrics: { address: `127.0.0.1:${o.metricsPort}` } },
    providers: {
      kubernetesIngressNGINX: {
        endpoint: o.apiUrl,
        token: tokenFile,
        certAuthFilePath: o.caCert,
        // Routers on `web` only, not on the metrics entry point.
        httpEntryPoint: "web",
      },
    },
    metrics: { prometheus: { entryPoint: "metrics", addServicesLabels: true, addEntryPointsLabels: true } },
    ping: { entryPoint: "metrics" },
    log: { level: "INFO" },
  });
}

/** Starts Traefik; resolves once it answers /ping and serves its metrics. */
export async function startTraefik(
  o: TraefikOptions,
  waitReady: (what: string, check: () => Promise<boolean>) => Promise<void>,
): Promise<RunningTraefik> {
  mkdirSync(o.dir, { recursive: true });
  const tokenFile = path.join(o.dir, "token");
  writeFileSync(tokenFile, o.token, { mode: 0o600 });
  const configFile = path.join(o.dir, "traefik.yml");
  writeFileSync(configFile, traefikStaticConfig(o, tokenFile));
  // Its provider prefers KUBECONFIG or an in-cluster environment over the configured endpoint: neither may leak in.
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(KUBECONFIG|KUBERNETES_SERVICE_.*|https?_proxy|no_proxy|all_proxy)$/i.test(key)) env[key] = value;
  }
  // Pod addresses are reached through the pods' network (SOCKS5); the API server (loopback) is never proxied by Go.
  env.HTTP_PROXY = o.podNetworkUrl;
  env.http_proxy = o.podNetworkUrl;
  o.group.start({ name: "traefik", command: o.binary, args: [`--configFile=${configFile}`], cwd: o.dir, env: env as NodeJS.ProcessEnv });
  const metricsUrl = `http://127.0.0.1:${o.metricsPort}/metrics`;
  await waitReady("did not answer /ping", async () => (await httpGet(`http://127.0.0.1:${o.metricsPort}/ping`)).status === 200);
  return { url: `http://127.0.0.1:${o.webPort}`, metricsUrl };
}
