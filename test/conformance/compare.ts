import type { Recording } from "./runner";
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

const LIST_FIELDS = new Set<keyof Snapshot>(["events", "metrics", "conditions", "pauseReasons"]);

const show = (value: unknown) => JSON.stringify(value);

function compareSnapshots(scenario: string, step: string, sim: Snapshot, real: Snapshot): Difference[] {
  const out: Difference[] = [];
  for (const field of Object.keys(real) as Array<keyof Snapshot>) {
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
  return out;
}

export interface KnownDifference {
  /** Scenario name, or "*" for every scenario. */
  scenario: string;
  /** Matched against the difference's text (`<field> sim=… real=…` / `<field> only on sim: …`). */
  match: RegExp;
  /** Why the simulator differs here and why that is acceptable (docs/fidelity.md says the same). */
  why: string;
  /** A race on the real cluster that not every run hits: exempt from the "still occurs" check. */
  sometimes?: true;
}

export function isKnown(diff: Difference, known: readonly KnownDifference[]): KnownDifference | undefined {
  return known.find((k) => (k.scenario === "*" || k.scenario === diff.scenario) && k.match.test(diff.text));
}

export function formatDifferences(diffs: readonly Difference[]): string {
  return diffs.map((d) => `  [${d.scenario}] step ${d.step}: ${d.text}`).join("\n");
}
