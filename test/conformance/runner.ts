import type { Backend, BackendName } from "./backends";
import { Kube, type KubeObject } from "./kube";
import { attributeEventsToEmission } from "./compare";
import { eventEmissionTimes, readRollout, takeSnapshot, type RolloutJson, type Snapshot } from "./snapshot";

/**
 * Drives one scenario against one back-end: creates its namespace and objects, then per step performs the action,
 * waits (by polling the Rollout, never by sleeping a fixed time) until the step's condition holds and the recorded
 * state has settled, and records a snapshot. A step whose condition never holds is recorded as a time-out and ends
 * the run, so the comparison shows where the back-ends parted.
 */

export interface ScenarioContext {
  kube: Kube;
  ns: string;
  backend: Backend;
  rollout: string;
}

export interface ScenarioStep {
  /** What the step does and what it waits for, e.g. "promote → step 3 pause". */
  name: string;
  act?: (ctx: ScenarioContext) => Promise<void>;
  until: (ro: RolloutJson, ctx: ScenarioContext) => boolean | Promise<boolean>;
  timeoutMs?: number;
}

export interface Scenario {
  name: string;
  /** The Rollout the scenario follows (snapshots are about it). */
  rollout: string;
  /** Runs before the namespace and objects are created (not recorded), e.g. to change the controller's configuration. */
  prepare?: (ctx: ScenarioContext) => Promise<void>;
  objects(ctx: Omit<ScenarioContext, "kube">): KubeObject[];
  steps: ScenarioStep[];
}

export type StepRecord = { step: string; snapshot: Snapshot; timedOut?: true };

export interface Recording {
  scenario: string;
  backend: BackendName;
  steps: StepRecord[];
  wallMs: number;
}

const POLL_MS = 250;
const SETTLE_POLLS = 4;
const SETTLE_POLL_MS = 500;
const SETTLE_BOUND_MS = 15_000;
const FINAL_SETTLE_POLLS = 8;
const DEFAULT_STEP_TIMEOUT_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The controller has seen the latest spec (otherwise a predicate could hold on the status from before the step). */
function specObserved(ro: RolloutJson): boolean {
  const generation = (ro.metadata as { generation?: number }).generation ?? 1;
  return generation <= 1 || ro.status?.observedGeneration === String(generation);
}

async function waitFor(ctx: ScenarioContext, step: ScenarioStep): Promise<boolean> {
  const deadline = Date.now() + (step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS);
  while (Date.now() < deadline) {
    const ro = await readRollout(ctx.kube, ctx.ns, ctx.rollout);
    if (specObserved(ro) && (await step.until(ro, ctx))) return true;
    await sleep(POLL_MS);
  }
  return false;
}

/** The snapshot once it has stayed the same for a few polls (events and metrics trail the status slightly). */
async function settledSnapshot(ctx: ScenarioContext, polls = SETTLE_POLLS): Promise<Snapshot> {
  const take = () => takeSnapshot(ctx.kube, ctx.backend.metricsUrl, ctx.ns, ctx.rollout);
  let last = await take();
  let same = 1;
  const deadline = Date.now() + SETTLE_BOUND_MS;
  while (same < polls && Date.now() < deadline) {
    await sleep(SETTLE_POLL_MS);
    const next = await take();
    same = JSON.stringify(next) === JSON.stringify(last) ? same + 1 : 1;
    last = next;
  }
  return last;
}

/** Events and metric series accumulate: each step records only those it added (a difference shows once). */
function onlyNew(snapshot: Snapshot, seen: { events: Set<string>; metrics: Set<string> }): Snapshot {
  const fresh = (items: string[], set: Set<string>) => {
    const added = items.filter((item) => !set.has(item));
    for (const item of added) set.add(item);
    return added;
  };
  return { ...snapshot, events: fresh(snapshot.events, seen.events), metrics: fresh(snapshot.metrics, seen.metrics) };
}

/**
 * Events the real controller wrote after the last step's snapshot settled (its event broadcaster is asynchronous):
 * once the snapshot has stayed the same for longer, whatever arrived is added to the last step.
 */
async function collectLateArrivals(
  ctx: ScenarioContext,
  steps: StepRecord[],
  seen: { events: Set<string>; metrics: Set<string> },
): Promise<void> {
  const last = steps.at(-1);
  if (!last) return;
  const late = onlyNew(await settledSnapshot(ctx, FINAL_SETTLE_POLLS), seen);
  last.snapshot = {
    ...last.snapshot,
    events: [...last.snapshot.events, ...late.events].sort(),
    metrics: [...last.snapshot.metrics, ...late.metrics].sort(),
  };
}

function namespaceFor(scenario: Scenario): string {
  return `conf-${scenario.name}`;
}

export async function runScenario(backend: Backend, scenario: Scenario): Promise<Recording> {
  const started = Date.now();
  const ns = namespaceFor(scenario);
  const kube = new Kube(backend.kubeConfig);
  const ctx: ScenarioContext = { kube, ns, backend, rollout: scenario.rollout };
  await scenario.prepare?.(ctx);
  await kube.createNamespace(ns);
  await backend.namespaceReady(ns);
  for (const obj of scenario.objects(ctx)) await kube.create(ns, obj);
  const steps: StepRecord[] = [];
  const startedAt: number[] = [];
  const seen = { events: new Set<string>(), metrics: new Set<string>() };
  for (const step of scenario.steps) {
    startedAt.push(steps.length === 0 ? started : Date.now());
    await step.act?.(ctx);
    const reached = await waitFor(ctx, step);
    const snapshot = onlyNew(await settledSnapshot(ctx), seen);
    steps.push(reached ? { step: step.name, snapshot } : { step: step.name, snapshot, timedOut: true });
    if (!reached) break;
  }
  await collectLateArrivals(ctx, steps, seen);
  const emittedAt = await eventEmissionTimes(kube, ns, scenario.rollout);
  return {
    scenario: scenario.name,
    backend: backend.name,
    steps: attributeEventsToEmission(steps, startedAt, emittedAt),
    wallMs: Date.now() - started,
  };
}
