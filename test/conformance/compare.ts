import type { Recording, StepRecord } from "./runner";
import type { Snapshot } from "./snapshot";

/**
 * Field-by-field comparison of one scenario's recordings on the two back-ends. Every difference is one line:
 * `step N "<step>": <field> sim=<value> real=<value>`, or for list fields (events, metrics, conditions, pause
 * reasons) `... <field> only on sim|real: <item>`, so a reader sees exactly what differs and an allow-list entry
 * can match exactly one kind of difference.
 */

export interface Difference {
  scenario: string;
  step: string;
  field: string;
  text: string;
}

/** Lists compared as sets at each step. */
const LIST_FIELDS = new Set<keyof Snapshot>(["conditions", "pauseReasons"]);
/**
 * Lists of what each step added (Events, metric series): the real controller writes Events asynchronously, so one may
 * land in the next step's snapshot. An item counts as a difference when the other back-end has not shown it by the
 * end of the following step (by the end of the run for the last step). Events are first moved back to the step in
 * which they were emitted (`attributeEventsToEmission`), so a late write does not look like a late event.
 */
const ARRIVAL_FIELDS = ["events", "metrics"] as const;

const show = (value: unknown) => JSON.stringify(value);

/**
 * Each recorded event moved back to the step during which the controller emitted it, never later than the step whose
 * snapshot first showed it. The real controller's Events reach the API server through client-go's event broadcaster:
 * one write at a time, and after a failed write it sleeps (up to 10 s the first time) before the next, so a step's
 * events can show up two steps later (a clean-clone run saw step 2's four events only after step 4). Emission times
 * are whole seconds (`firstTimestamp`) and a step's start is rounded down to its second, so an event emitted in the
 * second a step started counts for that step: at most one step late, which the one-step horizon allows.
 */
export function attributeEventsToEmission(
  steps: readonly StepRecord[],
  startedAt: readonly number[],
  emittedAt: ReadonlyMap<string, number>,
): StepRecord[] {
  const startSecond = startedAt.map((ms) => Math.floor(ms / 1000) * 1000);
  const events: string[][] = steps.map(() => []);
  steps.forEach((record, shownAt) => {
    for (const event of record.snapshot.events) {
      const at = emittedAt.get(event);
      let index = shownAt;
      if (at !== undefined) while (index > 0 && startSecond[index] > at) index--;
      events[index].push(event);
    }
  });
  return steps.map((record, i) => ({ ...record, snapshot: { ...record.snapshot, events: events[i].sort() } }));
}

function arrivalDifferences(sim: Recording, real: Recording): Difference[] {
  const out: Difference[] = [];
  for (const field of ARRIVAL_FIELDS) {
    const upTo = (r: Recording, last: number) => new Set(r.steps.slice(0, last + 1).flatMap((s) => s.snapshot[field]));
    const lastIndex = Math.min(sim.steps.length, real.steps.length) - 1;
    for (let i = 0; i <= lastIndex; i++) {
      const step = `${i + 1} ${real.steps[i].step}`;
      const horizon = Math.min(i + 1, lastIndex);
      const [simBy, realBy] = [upTo(sim, horizon), upTo(real, horizon)];
      for (const item of sim.steps[i].snapshot[field])
        if (!realBy.has(item)) out.push({ scenario: real.scenario, step, field, text: `${field} only on sim: ${item}` });
      for (const item of real.steps[i].snapshot[field])
        if (!simBy.has(item)) out.push({ scenario: real.scenario, step, field, text: `${field} only on real: ${item}` });
    }
  }
  return out;
}

function compareSnapshots(scenario: string, step: string, sim: Snapshot, real: Snapshot): Difference[] {
  const out: Difference[] = [];
  for (const field of Object.keys(real) as Array<keyof Snapshot>) {
    if ((ARRIVAL_FIELDS as readonly string[]).includes(field)) continue;
    if (LIST_FIELDS.has(field)) {
      const a = new Set(sim[field] as string[]);
      const b = new Set(real[field] as string[]);
      for (const item of a) if (!b.has(item)) out.push({ scenario, step, field, text: `${field} only on sim: ${item}` });
      for (const item of b) if (!a.has(item)) out.push({ scenario, step, field, text: `${field} only on real: ${item}` });
    } else if (show(sim[field]) !== show(real[field])) {
      out.push({ scenario, step, field, text: `${field} sim=${show(sim[field])} real=${show(real[field])}` });
    }
  }
  return out;
}

export function compareRecordings(sim: Recording, real: Recording): Difference[] {
  const out: Difference[] = [];
  const steps = Math.max(sim.steps.length, real.steps.length);
  for (let i = 0; i < steps; i++) {
    const a = sim.steps[i];
    const b = real.steps[i];
    const step = `${i + 1} ${(a ?? b).step}`;
    if (!a || !b || !!a.timedOut !== !!b.timedOut) {
      const state = (r: typeof a) => (!r ? "not reached" : r.timedOut ? "timed out" : "reached");
      out.push({ scenario: real.scenario, step, field: "reached", text: `reached sim=${state(a)} real=${state(b)}` });
    }
    if (a && b) out.push(...compareSnapshots(real.scenario, step, a.snapshot, b.snapshot));
  }
  return [...out, ...arrivalDifferences(sim, real)];
}

export interface KnownDifference {
  /** Scenario name, or "*" for every scenario. */
  scenario: string;
  /** Matched against the difference's text (`<field> sim=… real=…` / `<field> only on sim: …`). */
  match: RegExp;
  /** Only at steps whose `<n> <name>` matches. */
  step?: RegExp;
  /** Why the simulator differs here and why that is acceptable (docs/fidelity.md says the same). */
  why: string;
  /** A race on the real cluster that not every run hits: exempt from the "still occurs" check. */
  sometimes?: true;
}

export function isKnown(diff: Difference, known: readonly KnownDifference[]): KnownDifference | undefined {
  return known.find(
    (k) => (k.scenario === "*" || k.scenario === diff.scenario) && (!k.step || k.step.test(diff.step)) && k.match.test(diff.text),
  );
}

export function formatDifferences(diffs: readonly Difference[]): string {
  return diffs.map((d) => `  [${d.scenario}] step ${d.step}: ${d.text}`).join("\n");
}
