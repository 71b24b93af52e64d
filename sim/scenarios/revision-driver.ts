import type { Prng } from "../controller/prng";
import { T } from "../controller/resource-types";
import type { SimClock } from "../controller/sim-clock";
import type { Rollout } from "../controller/types";
import type { ObjectStore } from "../store/object-store";

export interface DriverCluster {
  name: string;
  store: ObjectStore;
}

export interface DriverContext {
  clusters: DriverCluster[];
  clock: SimClock;
  prng: Prng;
}

/** Starts new revisions while a simulation runs; returns a stop function. */
export interface ScenarioDriver {
  start(ctx: DriverContext): () => void;
}

const TICK_MS = 250;

function nextVersion(tag: string, prng: Prng): string {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(tag);
  if (!m) return `${tag}-1`;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return prng.chance(0.2) ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

/**
 * What `kubectl argo rollouts set image` does (GET, edit every container's image, PUT): a new pod template, so
 * the controller starts a new revision. Returns the new image.
 */
export function bumpImage(store: ObjectStore, namespace: string, name: string, prng: Prng): string | null {
  const ro = store.tryGet(T.rollouts, namespace, name) as Rollout | undefined;
  const current = ro?.spec.template.spec?.containers?.[0]?.image;
  if (!ro || !current) return null;
  const at = current.lastIndexOf(":");
  const next = `${current.slice(0, at)}:${nextVersion(current.slice(at + 1), prng)}`;
  store.update(T.rollouts, namespace, name, (draft) => {
    const spec = draft.spec as Rollout["spec"];
    for (const c of spec.template.spec?.containers ?? []) c.image = next;
  });
  return next;
}

const FAILED_ANALYSIS = new Set(["Failed", "Error"]);

/**
 * Whether a person stopped this Rollout: paused it (`spec.paused`) or aborted it. The controller's own aborts (a
 * failed analysis, which the demo scripts) leave the failed run in the status; a person's abort does not. What a
 * person stopped stays stopped until a person acts.
 */
function stoppedByAPerson(ro: Rollout | undefined): boolean {
  if (!ro) return false;
  if (ro.spec.paused === true) return true;
  if (ro.status?.abort !== true) return false;
  const { canary } = ro.status;
  const runs = [canary?.currentStepAnalysisRunStatus, canary?.currentBackgroundAnalysisRunStatus];
  return !runs.some((run) => run !== undefined && FAILED_ANALYSIS.has(run.status ?? ""));
}

/** The phase the driver goes by, or "stopped" when a person stopped the Rollout. */
function phaseOf(store: ObjectStore, namespace: string, name: string): string | undefined {
  const ro = store.tryGet(T.rollouts, namespace, name) as Rollout | undefined;
  return stoppedByAPerson(ro) ? "stopped" : ro?.status?.phase;
}

export interface ScheduledUpdate {
  cluster: string;
  namespace: string;
  name: string;
  /** Simulated minutes between revisions (jittered ±30 %), counted from when the rollout settles. */
  everyMinutes: number;
  /** Simulated seconds after start for the first new revision (so the demo moves at once). */
  firstAfterSeconds?: number;
}

/**
 * Demo driver: each listed rollout gets a new image every N simulated minutes once it is Healthy or Degraded.
 * Rollouts waiting on an indefinite pause are left for a human to promote, and those a person paused or aborted
 * for a person to resume, retry or roll forward: the driver never does it for them.
 */
export function scheduledDriver(plans: ScheduledUpdate[]): ScenarioDriver {
  return {
    start(ctx) {
      const byName = new Map(ctx.clusters.map((c) => [c.name, c.store]));
      const start = ctx.clock.now();
      const nextAt = new Map(
        plans.map((p) => [p, start + ctx.clock.realMs(p.firstAfterSeconds ?? p.everyMinutes * 60 * (0.5 + ctx.prng.next()))]),
      );
      const timer = setInterval(() => {
        const now = ctx.clock.now();
        for (const plan of plans) {
          const store = byName.get(plan.cluster);
          if (!store || now < (nextAt.get(plan) ?? 0)) continue;
          const phase = phaseOf(store, plan.namespace, plan.name);
          if (phase !== "Healthy" && phase !== "Degraded") {
            nextAt.set(plan, now + ctx.clock.realMs(30));
            continue;
          }
          bumpImage(store, plan.namespace, plan.name, ctx.prng);
          nextAt.set(plan, now + ctx.clock.realMs(plan.everyMinutes * 60 * (0.7 + 0.6 * ctx.prng.next())));
        }
      }, TICK_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

/** Healthy Rollouts no person stopped, in list order: what the scale driver starts revisions on. */
function healthyRollouts(store: ObjectStore): Rollout[] {
  return (store.list(T.rollouts).items as Rollout[]).filter((ro) => ro.status?.phase === "Healthy" && !stoppedByAPerson(ro));
}

interface CandidatePool {
  cluster: DriverCluster;
  rollouts: Rollout[];
}

/** Removes and returns the index-th candidate of all pools counted in turn, as if they were one list. */
function takeCandidate(pools: CandidatePool[], index: number): { cluster: DriverCluster; ro: Rollout } {
  let rest = index;
  for (const pool of pools) {
    if (rest < pool.rollouts.length) return { cluster: pool.cluster, ro: pool.rollouts.splice(rest, 1)[0] };
    rest -= pool.rollouts.length;
  }
  throw new Error(`no candidate ${index}`);
}

/**
 * Scale driver: starts revisions on random Healthy rollouts so that the fleet makes about `changesPerSecond`
 * canary weight changes per real second (`weightChangesPerRevision` TrafficWeightUpdated per revision).
 */
export function rateDriver(changesPerSecond: number, weightChangesPerRevision: number): ScenarioDriver {
  return {
    start(ctx) {
      const revisionsPerSecond = changesPerSecond / weightChangesPerRevision;
      let budget = 0;
      let last = ctx.clock.now();
      const timer = setInterval(() => {
        const now = ctx.clock.now();
        budget += ((now - last) / 1000) * revisionsPerSecond;
        last = now;
        if (budget < 1) return;
        // Healthy rollouts, listed once per tick, per cluster (a pair per candidate was 20,000 objects a tick).
        const pools: CandidatePool[] = ctx.clusters.map((cluster) => ({ cluster, rollouts: healthyRollouts(cluster.store) }));
        let candidates = pools.reduce((n, pool) => n + pool.rollouts.length, 0);
        while (budget >= 1 && candidates > 0) {
          const { cluster, ro } = takeCandidate(pools, Math.floor(ctx.prng.next() * candidates));
          candidates--;
          bumpImage(cluster.store, ro.metadata.namespace ?? "default", ro.metadata.name, ctx.prng);
          budget--;
        }
        budget = Math.min(budget, revisionsPerSecond * 2 + 1);
      }, TICK_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
