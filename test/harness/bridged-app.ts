import { createMigratedDatabase } from "@/test/harness/test-database";
import { httpCall, startRouteBridge, type CallOptions, type RouteBridge } from "@/test/harness/route-bridge";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import type { SessionView } from "@/lib/contracts/session";
import { TEST_NAMESPACE, type Backend } from "./backend";

/**
 * Rollscope in the test's process against a back-end: its route handlers (route → lib/http → service → lib/k8s |
 * lib/db) behind a real HTTP socket (the route bridge), a migrated SQLite file, and the back-end's cluster with its
 * Prometheus. One per test file: the app context is a module singleton read from the environment at first use.
 */

export interface BridgedApp {
  url: string;
  /** One request; the body is parsed as JSON when it is JSON. */
  call(
    method: string,
    path: string,
    options?: Omit<CallOptions, "method">,
  ): Promise<{ status: number; body: unknown; text: string; cookies: string[] }>;
  /** A GET that must answer 200. */
  read<T>(path: string, headers?: Record<string, string>, from?: string): Promise<T>;
  /** The headers a browser page sends on a POST after loading the session (cookie, CSRF token, origin). */
  browser(headers?: Record<string, string>, from?: string): Promise<Record<string, string>>;
  /** The resourceVersion of a Rollout of TEST_NAMESPACE in Rollscope's watch cache. */
  cachedVersion(name: string): string | null;
  stop(): Promise<void>;
}

export interface BridgedAppOptions {
  auth?: Record<string, unknown>;
  authorization?: Record<string, unknown>;
}

const ROUTES = [
  "/api/rollouts",
  "/api/session",
  "/api/session/permissions",
  "/api/audit",
  "/api/plugins",
  "/api/plugins/health",
  "/api/clusters/[cluster]/rollouts/[namespace]/[name]",
  "/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions",
];

async function importRoute(path: string): Promise<Record<string, unknown>> {
  // One literal import per route: the bundler-free test runner resolves them as written.
  switch (path) {
    case "/api/rollouts":
      return import("@/app/api/rollouts/route");
    case "/api/session":
      return import("@/app/api/session/route");
    case "/api/session/permissions":
      return import("@/app/api/session/permissions/route");
    case "/api/audit":
      return import("@/app/api/audit/route");
    case "/api/plugins":
      return import("@/app/api/plugins/route");
    case "/api/plugins/health":
      return import("@/app/api/plugins/health/route");
    case "/api/clusters/[cluster]/rollouts/[namespace]/[name]":
      return import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/route");
    case "/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions":
      return import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
    default:
      throw new Error(`no route ${path}`);
  }
}

export async function startBridgedApp(backend: Backend, options: BridgedAppOptions = {}): Promise<BridgedApp> {
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({
    kubeconfigPath: backend.kubeconfigPath,
    clusters: [{ name: backend.cluster, ...(backend.prometheusUrl ? { prometheus: { url: backend.prometheusUrl } } : {}) }],
    ...options,
  });
  const modules = await Promise.all(ROUTES.map(async (path) => ({ path, module: await importRoute(path) })));
  // Started after a route module installed the peer-address stamp, as `next start` listens after instrumentation.
  const bridge: RouteBridge = await startRouteBridge();
  bridge.add(modules);
  const { getAppContext } = await import("@/lib/server/app-context");

  const call: BridgedApp["call"] = async (method, path, callOptions = {}) => {
    const reply = await httpCall(`${bridge.url}${path}`, { method, ...callOptions });
    let body: unknown = reply.text;
    try {
      body = JSON.parse(reply.text);
    } catch {
      /* not JSON */
    }
    const setCookie = reply.headers["set-cookie"] ?? [];
    return { status: reply.status, body, text: reply.text, cookies: setCookie };
  };
  return {
    url: bridge.url,
    call,
    async read<T>(path: string, headers: Record<string, string> = {}, from?: string) {
      const reply = await call("GET", path, { headers, from });
      if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
      return reply.body as T;
    },
    async browser(headers: Record<string, string> = {}, from?: string) {
      const reply = await call("GET", "/api/session", { headers, from });
      const cookie = (reply.cookies[0] ?? "").split(";")[0];
      return { ...headers, cookie, "x-csrf-token": (reply.body as SessionView).csrfToken, origin: bridge.url };
    },
    cachedVersion: (name) => getAppContext().fleet.cluster(backend.cluster)?.rollout(TEST_NAMESPACE, name)?.resourceVersion ?? null,
    async stop() {
      await bridge.stop();
      await getAppContext().fleet.stop();
    },
  };
}
