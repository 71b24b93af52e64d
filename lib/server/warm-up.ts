import "server-only";
import { setMaxListeners } from "node:events";
import http from "node:http";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import { clusterPath, rolloutPath } from "@/lib/contracts/paths";
import { pluginsPath } from "@/lib/contracts/plugins";
import { rolloutHistoryPath, rolloutMeasuredTrafficPath } from "@/lib/contracts/rollout-detail";
import { rolloutWorkloadPath } from "@/lib/contracts/rollout-workload";
import { clusterHref, rolloutHref } from "@/lib/format/hrefs";
import type { AllowedHost } from "@/lib/net/host-check";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";

/**
 * The start-up warm-up. A freshly started production server pays, on its first request for a route, for loading the
 * route's chunks, compiling them and React's first render (measured at 5,000 Rollouts: the first overview load
 * 2.9 s, later ones 0.3–1.3 s). So once the server listens and the fleet has its first list, it asks itself for the
 * overview, the API routes the overview calls on hydration and the scripts and stylesheets the HTML names, then for
 * the other pages an SRE opens next (a Rollout's detail page, its cluster's, the plugins page) and the API routes the
 * detail page calls, for a Rollout the fleet holds; /api/readyz reports ready only after that: a load balancer sends
 * users to a warm replica. The first open of the detail page on a cold server held the event loop for 370 ms (a CPU
 * profile at 5,000 Rollouts: loading and instantiating the route's modules), and with it every live stream. Bounded: a
 * warm-up that fails or does not finish in time is logged and the server becomes ready anyway (cold, as without it).
 */

export type WarmUpState = "idle" | "warming" | "done" | "failed";

export interface WarmUpStatus {
  state: WarmUpState;
  /** Why it failed (failed), or what it is doing (warming). */
  detail: string | null;
}

/** Where the server listens and the Host header it answers for (the host check applies to the warm-up too). */
export interface WarmUpTarget {
  address: string;
  port: number;
  hostHeader: string;
}

export interface WarmUpOptions {
  target: WarmUpTarget;
  /** The fleet's clusters; the warm-up waits until none is still connecting (its first list), within the bound. */
  clusterStates(): readonly Pick<ClusterStateView, "connection">[];
  /** A Rollout the fleet holds after its first list, whose detail page and API routes are warmed; null when none. */
  sampleRollout?(): RolloutRef | null;
  /** The wait for the fleet's first list: past it, the routes are warmed with what the fleet holds. */
  firstListLimitMs?: number;
  /** The whole warm-up, first list included. */
  limitMs?: number;
  log?: (line: string) => void;
}

/** The overview and what its first load asks for once hydrated (the live stream only until its headers arrive). */
const PAGE_PATH = "/";
const API_PATHS = ["/api/session", "/api/clusters", "/api/rollouts"];
const STREAM_PATH = "/api/stream";
/** The range the detail page's chart opens with (use-history-range.ts). */
const DETAIL_HISTORY_RANGE = "1h";
const FIRST_LIST_LIMIT_MS = 20_000;
const WARM_UP_LIMIT_MS = 40_000;
const FIRST_LIST_POLL_MS = 200;
const WARMING_DETAIL = "warming up: rendering the overview once so the first user does not pay for a cold server";

const STATUS_KEY = Symbol.for("rollscope.warmUp");
type GlobalWithWarmUp = typeof globalThis & { [STATUS_KEY]?: WarmUpStatus };

/** The process's warm-up (kept on globalThis: instrumentation and route handlers are separate module instances). */
export function warmUpStatus(): WarmUpStatus {
  return (globalThis as GlobalWithWarmUp)[STATUS_KEY] ?? { state: "idle", detail: null };
}

function setStatus(status: WarmUpStatus): void {
  (globalThis as GlobalWithWarmUp)[STATUS_KEY] = status;
}

/**
 * Next's own server as the warm-up reaches it: the origin Next computed when it started listening (`localhost` for
 * every interface), the port it put in PORT, and the first host the server answers for. Null without a port.
 */
export function warmUpTarget(env: Record<string, string | undefined>, allowedHosts: readonly AllowedHost[]): WarmUpTarget | null {
  const port = Number(env.PORT);
  if (!Number.isInteger(port) || port <= 0) return null;
  let address = "127.0.0.1";
  try {
    if (env.__NEXT_PRIVATE_ORIGIN) address = new URL(env.__NEXT_PRIVATE_ORIGIN).hostname.replace(/^\[(.*)\]$/, "$1");
  } catch {
    // Keep the loopback address.
  }
  const first = allowedHosts[0] ?? { hostname: "localhost", port: null };
  return { address, port, hostHeader: `${first.hostname}:${first.port ?? port}` };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Until no cluster is still connecting (each has listed, or failed to); false when `limitMs` passed first. */
async function waitForFirstList(clusterStates: WarmUpOptions["clusterStates"], limitMs: number, signal: AbortSignal): Promise<boolean> {
  const until = performance.now() + limitMs;
  const listing = () => clusterStates().some((c) => c.connection === "connecting");
  while (!signal.aborted && listing() && performance.now() < until) await sleep(FIRST_LIST_POLL_MS, signal);
  return !listing();
}

/** Resolves when no cluster is still connecting (each has listed, or failed to), or after `limitMs` at most. */
export async function firstListed(clusterStates: WarmUpOptions["clusterStates"], limitMs = FIRST_LIST_LIMIT_MS): Promise<void> {
  const never = new AbortController();
  await waitForFirstList(clusterStates, limitMs, never.signal);
}

/** One GET; resolves with the body (empty when `headersOnly`), rejects on a 5xx, a network error or the abort. */
function get(target: WarmUpTarget, path: string, signal: AbortSignal, headersOnly = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: target.address,
        port: target.port,
        path,
        signal,
        headers: { host: target.hostHeader, "user-agent": "rollscope-warm-up", "accept-encoding": "identity" },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 500) {
          res.resume();
          reject(new Error(`GET ${path} answered ${status}`));
        } else if (headersOnly) {
          res.on("error", () => {}); // the stream cut here on purpose
          res.destroy();
          resolve("");
        } else {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve(body));
          res.on("error", reject);
        }
      },
    );
    req.on("error", (err) => reject(signal.aborted ? new Error(`GET ${path} did not finish in time`) : err));
  });
}

/** The scripts and stylesheets an HTML page loads from Next's static assets. */
export function staticAssetPaths(html: string): string[] {
  return [...new Set([...html.matchAll(/(?:src|href)="(\/_next\/static\/[^"?#]+\.(?:js|css))"/g)].map((m) => m[1]))];
}

/** The pages opened after the overview and the API routes they call on hydration, for one Rollout. */
function laterRoutes(rollout: RolloutRef | null): { pages: string[]; apis: string[] } {
  const pages = ["/plugins"];
  const apis: string[] = [pluginsPath()];
  if (rollout) {
    pages.push(rolloutHref(rollout.cluster, rollout.namespace, rollout.name), clusterHref(rollout.cluster));
    apis.push(
      rolloutPath(rollout),
      rolloutHistoryPath(rollout, DETAIL_HISTORY_RANGE),
      rolloutMeasuredTrafficPath(rollout, DETAIL_HISTORY_RANGE),
      rolloutWorkloadPath(rollout),
      clusterPath(rollout.cluster),
    );
  }
  return { pages, apis };
}

async function warmRoutes(
  target: WarmUpTarget,
  later: { pages: string[]; apis: string[] },
  signal: AbortSignal,
): Promise<{ assets: number; failed: string[] }> {
  const html = await get(target, PAGE_PATH, signal);
  const assets = staticAssetPaths(html);
  await Promise.all([...API_PATHS, ...assets].map((path) => get(target, path, signal)).concat(get(target, STREAM_PATH, signal, true)));
  // The first render compiled the route; the second runs it as every user's will.
  await get(target, PAGE_PATH, signal);
  // One after the other: each loads and compiles its own modules. A 5xx here (a Prometheus that is down answers the
  // measured-traffic route so) still loaded the route; it is named in the log, and the warm-up goes on.
  const failed: string[] = [];
  for (const path of [...later.pages, ...later.apis]) {
    try {
      await get(target, path, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      failed.push(path);
    }
  }
  return { assets: assets.length, failed };
}

/**
 * Runs the warm-up once: `warming` until it is done or failed, never longer than `limitMs`, and logs the outcome. Never
 * rejects; every timer and request it starts ends with it.
 */
export async function warmUpServer(options: WarmUpOptions): Promise<WarmUpStatus> {
  const {
    target,
    clusterStates,
    sampleRollout,
    firstListLimitMs = FIRST_LIST_LIMIT_MS,
    limitMs = WARM_UP_LIMIT_MS,
    log = console.log,
  } = options;
  setStatus({ state: "warming", detail: WARMING_DETAIL });
  const startedAt = performance.now();
  const deadline = new AbortController();
  // Every request of the warm-up (a dozen or more assets at once) listens to the one deadline.
  setMaxListeners(256, deadline.signal);
  const timer = setTimeout(() => deadline.abort(), limitMs);
  try {
    const listed = await waitForFirstList(clusterStates, firstListLimitMs, deadline.signal);
    const later = laterRoutes(sampleRollout?.() ?? null);
    const { assets, failed } = await warmRoutes(target, later, deadline.signal);
    setStatus({ state: "done", detail: null });
    const partly = listed ? "" : ", some clusters still listing";
    const errors = failed.length ? `, ${failed.length} answered with an error: ${failed.join(", ")}` : "";
    const pages = later.pages.length + 1;
    const apis = API_PATHS.length + 1 + later.apis.length;
    log(
      `Rollscope: warmed up in ${Math.round(performance.now() - startedAt)} ms (${pages} pages, ${apis} API routes, ${assets} assets${partly}${errors}); ready`,
    );
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    setStatus({ state: "failed", detail: reason });
    log(
      `Rollscope: the start-up warm-up failed after ${Math.round(performance.now() - startedAt)} ms (${reason}); ready anyway, the first page load pays for the cold start`,
    );
  } finally {
    clearTimeout(timer);
    deadline.abort();
  }
  return warmUpStatus();
}

interface WarmUpFleet {
  clusterStates(): readonly Pick<ClusterStateView, "connection">[];
  rollouts(): readonly { cluster: string; namespace: string | null; name: string }[];
}

function firstRollout(fleet: WarmUpFleet): RolloutRef | null {
  const first = fleet.rollouts().find((r) => r.namespace);
  return first ? { cluster: first.cluster, namespace: first.namespace!, name: first.name } : null;
}

/**
 * From the instrumentation hook of a production server, after the watches started: the warm-up in the background
 * (Next handles no request until the hook returns, and the warm-up is requests). Without a port there is nothing to
 * ask; the server is ready at once, cold.
 */
export function startWarmUp(fleet: WarmUpFleet, allowedHosts: readonly AllowedHost[]): void {
  const target = warmUpTarget(process.env, allowedHosts);
  if (!target) {
    console.log("Rollscope: no start-up warm-up (PORT is not set); the first page load pays for the cold start");
    return;
  }
  void warmUpServer({ target, clusterStates: () => fleet.clusterStates(), sampleRollout: () => firstRollout(fleet) });
}
