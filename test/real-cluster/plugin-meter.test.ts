import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginHealthReport, PluginHealthView } from "@/lib/contracts/plugins";
import { FAULTY_ROUTER_PLUGIN } from "@/realcluster/plugin-meters";
import {
  createRoutedCanary,
  isHealthy,
  ROUTER_PLUGIN,
  setImage,
  simBackend,
  waitForRollout,
  type Backend,
  type RolloutState,
} from "@/test/harness/backend";
import { startBridgedApp, type BridgedApp } from "@/test/harness/bridged-app";
import { readPluginMeterText, type PluginMeterReading } from "@/test/harness/plugin-meter";
import { realBackend, realBackendSkipReason, sharedRealCluster } from "@/test/harness/real-backend";

/**
 * rollscope-plugin-meter on the real Argo Rollouts controller (realcluster/plugin-meters.ts registers every plugin
 * through it): a canary routed by our faulty router walks its steps while the router fails k SetWeight calls and
 * delays k' VerifyWeight calls on command; Rollscope's plugin health, read from Prometheus, shows exactly the failures
 * the router answered with and the delay it added, as measured figures. Then the simulator's meter family is compared
 * with the real meter's on one walk of upstream's sample router (names, labels, methods called, outcomes).
 */

const FAULTY = "meter-faulty";
const SAMPLE = "meter-sample";
const STEPS = [{ setWeight: 25 }, { pause: { duration: "2s" } }, { setWeight: 50 }, { pause: { duration: "2s" } }, { setWeight: 75 }];
const FAILED_SET_WEIGHT = 2;
const SLOW_VERIFY_WEIGHT = 2;
const DELAY_MS = 1_500;

/** Healthy at the revision's last step, with the controller having seen the revision (not v1's status still). */
const atLastStep = (revision: number) => (r: RolloutState) =>
  isHealthy(r) &&
  String((r.status as { observedGeneration?: unknown } | undefined)?.observedGeneration) === String(r.metadata.generation) &&
  r.spec?.template?.spec?.containers?.[0]?.image?.endsWith(`:${revision}.0.0`) === true &&
  r.status?.currentStepIndex === STEPS.length;

async function control<T>(url: string, method: string, body?: unknown): Promise<T | null> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return response.status === 204 ? null : ((await response.json()) as T);
}

async function metricsText(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return response.text();
}

/** Every `rollscope_plugin_*` family in the text → its label names (a histogram's `le` and suffixes folded in). */
function familyShape(text: string): Record<string, string[]> {
  const shape: Record<string, Set<string>> = {};
  for (const line of text.split("\n")) {
    const match = /^(rollscope_plugin_[\w:]*?)(_bucket|_sum|_count)?(?:\{(.*)\})?\s/.exec(line);
    if (!match) continue;
    const labels = (shape[match[1]] ??= new Set());
    for (const [, key] of (match[3] ?? "").matchAll(/(\w+)="(?:[^"\\]|\\.)*"/g)) if (key !== "le") labels.add(key);
  }
  return Object.fromEntries(
    Object.entries(shape)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, labels]) => [name, [...labels].sort()]),
  );
}

/** Calls per method and outcome between two readings (outcomes that did not move left out). */
function callsBetween(before: PluginMeterReading, after: PluginMeterReading): Record<string, Record<string, number>> {
  const delta: Record<string, Record<string, number>> = {};
  for (const [method, outcomes] of Object.entries(after.calls)) {
    for (const [outcome, calls] of Object.entries(outcomes)) {
      const moved = calls - (before.calls[method]?.[outcome] ?? 0);
      if (moved > 0) (delta[method] ??= {})[outcome] = moved;
    }
  }
  return delta;
}

/** Which methods were called, and with which outcomes (counts left out: the two controllers retry differently). */
const methodsAndOutcomes = (calls: Record<string, Record<string, number>>) =>
  Object.fromEntries(
    Object.entries(calls)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([method, outcomes]) => [method, Object.keys(outcomes).sort()]),
  );

/**
 * The router's received counts and its meter's reading, taken when no call is in flight: the controller keeps
 * reconciling (and calling the router) after a walk, and the router counts a call when it arrives while the meter
 * counts it when it returns, so one pair of reads can straddle a call. Two pairs 2 s apart that agree are quiet.
 */
async function quietReadings(controlUrl: string, meterUrl: string, plugin: string) {
  const readPair = async () => ({
    received: (await control<Record<string, number>>(`${controlUrl}/calls`, "GET"))!,
    meter: readPluginMeterText(await metricsText(meterUrl), plugin),
  });
  const deadline = Date.now() + 60_000;
  let last = await readPair();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const next = await readPair();
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    if (Date.now() > deadline) throw new Error(`the controller never stopped calling ${plugin} for 2 s`);
    last = next;
  }
}

describe.skipIf(realBackendSkipReason() !== null)("plugin meter on the real controller", () => {
  let backend: Backend;
  let app: BridgedApp;
  let controlUrl: string;

  beforeAll(async () => {
    backend = realBackend();
    controlUrl = sharedRealCluster().pluginMeters.faultyRouterControlUrl;
    app = await startBridgedApp(backend);
    await createRoutedCanary(backend, FAULTY, { plugin: FAULTY_ROUTER_PLUGIN, steps: STEPS });
    await waitForRollout(backend, FAULTY, "Healthy", isHealthy);
    // The controller started the router (and its control endpoint) for this Rollout: no fault left from elsewhere.
    await control(`${controlUrl}/faults`, "DELETE");
  });

  afterAll(async () => {
    await app?.stop();
  });

  it("meters exactly the SetWeight failures and the VerifyWeight delay the router injected; Rollscope shows them as measured figures", async () => {
    const meter = sharedRealCluster().pluginMeters.plugins.find((p) => p.name === FAULTY_ROUTER_PLUGIN)!;
    const prometheusUrl = sharedRealCluster().prometheusUrl;
    // The controller starts a plugin (and so its meter) at its first use: wait until Prometheus holds the meter's
    // series before the walk.
    const deadline0 = Date.now() + 60_000;
    const scraped = async () => {
      const query = encodeURIComponent(`rollscope_plugin_calls_total{plugin="${FAULTY_ROUTER_PLUGIN}",method="VerifyWeight"}`);
      const body = (await (await fetch(`${prometheusUrl}/api/v1/query?query=${query}`)).json()) as { data: { result: unknown[] } };
      return body.data.result.length > 0;
    };
    while (!(await scraped())) {
      if (Date.now() > deadline0) throw new Error(`Prometheus never scraped the meter of ${FAULTY_ROUTER_PLUGIN}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const meterUrl = `http://${meter.metricsAddress}/metrics`;
    const { received: receivedBefore, meter: meterBefore } = await quietReadings(controlUrl, meterUrl, FAULTY_ROUTER_PLUGIN);

    await control(`${controlUrl}/faults`, "POST", { method: "SetWeight", action: "fail", count: FAILED_SET_WEIGHT, message: "injected" });
    await control(`${controlUrl}/faults`, "POST", {
      method: "VerifyWeight",
      action: "delay",
      count: SLOW_VERIFY_WEIGHT,
      delayMs: DELAY_MS,
    });
    await setImage(backend, FAULTY, "2.0.0");
    await waitForRollout(backend, FAULTY, "Healthy at revision 2 after its last step", atLastStep(2), 180_000);

    // What the router itself received in the walk, and what its meter counted: the same calls, the k failures exactly.
    const { received: receivedAfter, meter: meterAfter } = await quietReadings(controlUrl, meterUrl, FAULTY_ROUTER_PLUGIN);
    const received = (method: string) => (receivedAfter[method] ?? 0) - (receivedBefore[method] ?? 0);
    const metered = callsBetween(meterBefore, meterAfter);
    const n = { SetWeight: received("SetWeight"), VerifyWeight: received("VerifyWeight") };
    expect(n.SetWeight).toBeGreaterThan(FAILED_SET_WEIGHT);
    expect(n.VerifyWeight).toBeGreaterThan(SLOW_VERIFY_WEIGHT);
    expect(metered.SetWeight).toStrictEqual({ ok: n.SetWeight - FAILED_SET_WEIGHT, error: FAILED_SET_WEIGHT });
    expect(metered.VerifyWeight).toStrictEqual({ ok: n.VerifyWeight });
    const meteredSeconds = meterAfter.durations.VerifyWeight.sum - (meterBefore.durations.VerifyWeight?.sum ?? 0);
    const injected = (SLOW_VERIFY_WEIGHT * DELAY_MS) / 1000;

    // Rollscope reads the family from Prometheus (5-s scrapes), exactly (raw samples, no extrapolation): wait until
    // the page's counts over the last hour equal the meter's own totals, read just before (the controller may call
    // again after the walk, so both are read afresh each time).
    const path = `/api/plugins/health?range=1h&cluster=${backend.cluster}&plugin=${encodeURIComponent(FAULTY_ROUTER_PLUGIN)}`;
    const read = async () => (await app.read<PluginHealthReport>(path)).plugins.find((p) => p.cluster === backend.cluster);
    const methodOf = (h: PluginHealthView | undefined, method: string) => h?.perRpc?.data?.methods.find((m) => m.method === method);
    const total = (reading: PluginMeterReading, method: string) => Object.values(reading.calls[method] ?? {}).reduce((a, b) => a + b, 0);
    const shown = (h: PluginHealthView | undefined, method: string) => ({
      calls: methodOf(h, method)?.calls,
      errors: methodOf(h, method)?.errors,
    });
    const counted = (reading: PluginMeterReading, method: string) => ({
      calls: total(reading, method),
      errors: total(reading, method) - (reading.calls[method]?.ok ?? 0),
    });
    let health: PluginHealthView | undefined;
    let meterNow = meterAfter;
    const caughtUp = () =>
      ["SetWeight", "VerifyWeight"].every((m) => JSON.stringify(shown(health, m)) === JSON.stringify(counted(meterNow, m)));
    // The page's last window closes on the minute: up to a minute and a scrape after the walk.
    const deadline = Date.now() + 150_000;
    do {
      if (health) await new Promise((resolve) => setTimeout(resolve, 2_000));
      meterNow = readPluginMeterText(await metricsText(meterUrl), FAULTY_ROUTER_PLUGIN);
      health = await read();
    } while (Date.now() < deadline && !caughtUp());

    const setWeight = methodOf(health, "SetWeight");
    const verifyWeight = methodOf(health, "VerifyWeight");
    const meterMean = meterNow.durations.VerifyWeight.sum / meterNow.durations.VerifyWeight.count;
    console.log(
      `injected: SetWeight ${FAILED_SET_WEIGHT} failed of ${n.SetWeight}, VerifyWeight ${SLOW_VERIFY_WEIGHT} × ${DELAY_MS} ms of ` +
        `${n.VerifyWeight} (${injected} s); meter: ${JSON.stringify(metered)}, VerifyWeight ${meteredSeconds.toFixed(3)} s; ` +
        `meter totals: SetWeight ${JSON.stringify(counted(meterNow, "SetWeight"))}, VerifyWeight ${JSON.stringify(counted(meterNow, "VerifyWeight"))}, ` +
        `mean ${meterMean.toFixed(4)} s; Rollscope (Prometheus): SetWeight ${setWeight?.errors} failed of ${setWeight?.calls} ` +
        `(${JSON.stringify(setWeight?.errorsByOutcome)}), VerifyWeight ${verifyWeight?.errors} failed of ${verifyWeight?.calls}, ` +
        `mean ${verifyWeight?.mean?.toFixed(4)} s, p95 ${verifyWeight?.p95?.toFixed(3)} s`,
    );
    // The meter's own histogram: the injected delay within ±10 %.
    expect(meteredSeconds).toBeGreaterThanOrEqual(injected * 0.9);
    expect(meteredSeconds).toBeLessThanOrEqual(injected * 1.1);
    expect(health?.perRpc?.error).toBeNull();
    expect(health?.perRpc?.signal).toMatch(/^MEASURED at the plugin boundary/);
    expect(health?.perRpc?.data?.source).toBe("meter");
    // The page: exactly the meter's k failed of n per method (the injected SetWeight failures among them, as errors the
    // plugin returned), and VerifyWeight's mean latency, the injected delay included, within ±10 % of the meter's.
    expect(shown(health, "SetWeight")).toStrictEqual(counted(meterNow, "SetWeight"));
    expect(shown(health, "VerifyWeight")).toStrictEqual(counted(meterNow, "VerifyWeight"));
    expect(setWeight!.errors).toBeGreaterThanOrEqual(FAILED_SET_WEIGHT);
    expect(setWeight?.errorsByOutcome.map((e) => e.outcome)).toStrictEqual(["error"]);
    expect(verifyWeight!.mean!).toBeGreaterThanOrEqual(meterMean * 0.9);
    expect(verifyWeight!.mean!).toBeLessThanOrEqual(meterMean * 1.1);
    // The slow calls are VerifyWeight's slowest: the page's p95 lies among them (in the meter's 1–2.5 s bucket) when
    // they are more than 5 % of the hour's calls, and among the fast ones otherwise (earlier walks add fast calls).
    const slowShare = SLOW_VERIFY_WEIGHT / counted(meterNow, "VerifyWeight").calls;
    if (slowShare > 0.05) {
      expect(verifyWeight!.p95!).toBeGreaterThan(1);
      expect(verifyWeight!.p95!).toBeLessThanOrEqual(2.5);
    } else {
      expect(verifyWeight!.p95!).toBeLessThan(1);
    }
  }, 360_000);

  it("emits the same meter family as the simulator for one walk of the sample router: names, labels, methods and outcomes", async () => {
    const meter = sharedRealCluster().pluginMeters.plugins.find((p) => p.name === ROUTER_PLUGIN);
    if (!meter) throw new Error(`${ROUTER_PLUGIN} is not behind a meter`);
    const realUrl = `http://${meter.metricsAddress}/metrics`;
    const sim = await simBackend();
    try {
      const walk = async (b: Backend, url: string) => {
        await createRoutedCanary(b, SAMPLE, { steps: STEPS });
        await waitForRollout(b, SAMPLE, "Healthy", isHealthy, 120_000);
        const before = readPluginMeterText(await metricsText(url), ROUTER_PLUGIN);
        await setImage(b, SAMPLE, "2.0.0");
        await waitForRollout(b, SAMPLE, "Healthy at revision 2 after its last step", atLastStep(2), 180_000);
        const text = await metricsText(url);
        return { shape: familyShape(text), calls: callsBetween(before, readPluginMeterText(text, ROUTER_PLUGIN)) };
      };
      const [real, simulated] = await Promise.all([walk(backend, realUrl), walk(sim, sim.pluginMeterUrl!)]);
      console.log(`meter family, real: ${JSON.stringify(real)}\nsimulator: ${JSON.stringify(simulated)}`);
      expect(Object.keys(real.shape)).not.toHaveLength(0);
      expect(simulated.shape).toStrictEqual(real.shape);
      // No fault injected: every call ok on both, and the same methods called in the walk.
      expect(methodsAndOutcomes(simulated.calls)).toStrictEqual(methodsAndOutcomes(real.calls));
      expect(Object.values(methodsAndOutcomes(real.calls)).flat()).toSatisfy((outcomes: string[]) => outcomes.every((o) => o === "ok"));
    } finally {
      await sim.stop();
    }
  }, 360_000);
});
