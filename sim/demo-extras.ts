import { randomBytes } from "node:crypto";
import { findPrometheus, startPrometheus, type PrometheusHandle } from "../test/harness/prometheus";
import { startOidcProvider, type OidcAccount, type OidcProviderHandle } from "../test/harness/oidc-provider";

/*
 * What `npm run demo` adds around the simulated fleet on request: a real Prometheus scraping the simulated
 * controllers (measured traffic, the stuck-router finding and per-RPC figures need it), and a real OpenID Provider
 * with an operator and a viewer, so sign-in and buttons disabled with their reason can be seen. Both listen on
 * 127.0.0.1 only.
 */

/** The demo's sign-in accounts: any password; the groups are the simulated clusters' RBAC subjects. */
const DEMO_ACCOUNTS: Record<string, OidcAccount> = {
  alice: { email: "alice@example.com", groups: ["sre-operators"] },
  bob: { email: "bob@example.com", groups: ["viewers"] },
};

export interface DemoExtras {
  /** Per cluster, what its Rollscope configuration entry gains (its Prometheus). */
  clusterExtra: (cluster: string) => Record<string, unknown>;
  /** Top-level Rollscope configuration (sign-in). */
  config: Record<string, unknown>;
  notes: string[];
  stop(): Promise<void>;
}

export async function startDemoExtras(options: {
  clusters: ReadonlyArray<{ name: string; metricsUrl: string; pluginMeterUrl: string }>;
  prometheus: boolean;
  /** The app's URL when sign-in is wanted, e.g. http://127.0.0.1:3000. */
  signInAt: string | null;
}): Promise<DemoExtras> {
  let prometheus: PrometheusHandle | null = null;
  let provider: OidcProviderHandle | null = null;
  const notes: string[] = [];
  try {
    if (options.prometheus) {
      if (findPrometheus()) {
        prometheus = await startPrometheus({
          targets: options.clusters.flatMap((c) => [
            { job: `argo-rollouts-${c.name}`, url: c.metricsUrl, labels: { cluster: c.name } },
            { job: `rollscope-plugin-meter-${c.name}`, url: c.pluginMeterUrl, labels: { cluster: c.name } },
          ]),
          scrapeIntervalSeconds: 5,
          readyTimeoutMs: 60_000,
        });
        notes.push(`prometheus: ${prometheus.url} (scraping the simulated controllers)`);
      } else notes.push("prometheus: not installed; measured traffic and per-RPC figures stay empty");
    }
    if (options.signInAt) {
      provider = await startOidcProvider({ redirectUris: [`${options.signInAt}/api/auth/callback`], accounts: DEMO_ACCOUNTS });
      notes.push(`sign-in: ${provider.issuer} — log in as alice (operator) or bob (viewer), any password`);
    }
  } catch (err) {
    await prometheus?.stop();
    await provider?.stop();
    throw err;
  }
  const promUrl = prometheus?.url;
  return {
    clusterExtra: (cluster) => (promUrl ? { prometheus: { url: promUrl, labelMatcher: `cluster="${cluster}"`, timeoutMs: 10_000 } } : {}),
    config: provider
      ? {
          auth: {
            mode: "oidc",
            baseUrl: options.signInAt,
            sessionSecret: randomBytes(32).toString("base64url"),
            oidc: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret },
          },
          authorization: { auditReaders: { groups: ["sre-operators"] } },
        }
      : {},
    notes,
    async stop() {
      await provider?.stop();
      await prometheus?.stop();
    },
  };
}
