import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goMissingReason } from "@/realcluster/build";
import { startRealBackend, startSimBackend, type Backend } from "./backends";
import { compareRecordings, formatDifferences, isKnown, type KnownDifference } from "./compare";
import { KNOWN_DIFFERENCES } from "./known-differences";
import { configNeedsRestartScenario } from "./restart-scenario";
import { runScenario, type Scenario } from "./runner";
import { SCENARIOS } from "./scenarios";

/**
 * Conformance: every scenario runs on the simulator and on the real Argo Rollouts controller (one cluster each, a
 * namespace per scenario, all scenarios at once), and the recordings must match field by field except for the
 * differences listed, with why, in known-differences.ts (and docs/fidelity.md). The recordings are written to
 * <tmp>/rollscope-conformance/<scenario>.json for reading.
 */

const skipReason = goMissingReason();
if (skipReason) console.log(`conformance (simulator vs real controller) skipped: ${skipReason}`);

const OUT_DIR = path.join(tmpdir(), "rollscope-conformance");
const used = new Set<KnownDifference>();

describe.skipIf(skipReason !== null)("conformance: the simulator behaves like the real Argo Rollouts controller", () => {
  let sim: Backend | undefined;
  let real: Backend | undefined;

  beforeAll(async () => {
    mkdirSync(OUT_DIR, { recursive: true });
    [sim, real] = await Promise.all([startSimBackend(), startRealBackend((line) => console.log(`[real cluster] ${line}`))]);
  }, 60 * 60_000);

  afterAll(async () => {
    await Promise.all([sim?.stop(), real?.stop()]);
  }, 60_000);

  async function runAndCompare(scenario: Scenario): Promise<void> {
    if (!sim || !real) throw new Error("back-ends did not start");
    const [onSim, onReal] = await Promise.all([runScenario(sim, scenario), runScenario(real, scenario)]);
    writeFileSync(path.join(OUT_DIR, `${scenario.name}.json`), JSON.stringify({ sim: onSim, real: onReal }, null, 2));
    const diffs = compareRecordings(onSim, onReal);
    const unexplained = diffs.filter((d) => {
      const known = isKnown(d, KNOWN_DIFFERENCES);
      if (known) used.add(known);
      return !known;
    });
    expect(unexplained, `unexplained differences (simulator vs real controller):\n${formatDifferences(unexplained)}`).toEqual([]);
  }

  for (const scenario of SCENARIOS) it.concurrent(scenario.name, () => runAndCompare(scenario));

  // Restarts the controllers, which every Rollout on the back-end would notice: after the concurrent ones, alone.
  it(configNeedsRestartScenario.name, () => runAndCompare(configNeedsRestartScenario));

  it("every known difference that always occurs still does (the allow-list does not go stale)", () => {
    const stale = KNOWN_DIFFERENCES.filter((k) => !k.sometimes && !used.has(k));
    expect(stale.map((k) => `[${k.scenario}] ${k.match}`)).toEqual([]);
  });
});
