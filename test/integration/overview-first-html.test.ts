import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetPage } from "@/lib/contracts/fleet-page";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/sim/rollscope-config";
import { assertFreshBuild, startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { waitFor } from "@/test/harness/free-port";

/*
 * The overview's first HTML at a fleet larger than one page (2 × 150 Rollouts, pages of 100): what an SRE opening
 * the dashboard waits for. It carries the first rows of the page, so they show before any JavaScript runs, and
 * only those a tall screen shows (components/rollouts/fleet-table.tsx, FIRST_PAINT_ROWS = 30): the rest of the page
 * renders in the browser after hydration. Sizes, not times: the benchmark (`--only first-row`) times the first row.
 * Needs a production build (`npx next build`), as the e2e tests do.
 */

const ROLLOUTS = 300;
/** The rows in the first HTML, and a bound on its size (364 KB when it held all 100 rows). */
const FIRST_PAINT_ROWS = 30;
const MAX_HTML_BYTES = 250_000;

let sim: SimulationHandle;
let app: AppProcess;
let dir: string;

beforeAll(async () => {
  assertFreshBuild();
  dir = mkdtempSync(path.join(tmpdir(), "rollscope-first-html-"));
  sim = await startSimulation({
    scenario: "scale",
    scale: { clusters: 2, rolloutsPerCluster: ROLLOUTS / 2, changesPerSecond: 5, seed: 1 },
    timeScale: 60,
    seed: 1,
    kubeconfigPath: path.join(dir, "kubeconfig"),
  });
  const configPath = path.join(dir, "rollscope.yaml");
  writeRollscopeConfig(configPath, sim.kubeconfigPath, sim.clusters);
  app = await startAppProcess({
    kubeconfigPath: sim.kubeconfigPath,
    databaseUrl: `file:${path.join(dir, "rollscope.db")}`,
    env: { ROLLSCOPE_CONFIG: configPath },
  });
  await waitFor(
    "the whole fleet on the overview",
    async () => ((await (await fetch(`${app.url}/api/rollouts`)).json()) as FleetPage).total >= ROLLOUTS,
    90_000,
    500,
  );
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await sim?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The data-key of every overview row in the HTML, in order. */
function rowKeys(html: string): string[] {
  return [...html.matchAll(/<tr data-testid="rollout-row" data-key="([^"]+)"/g)].map((m) => m[1]);
}

describe("the overview's first HTML", () => {
  it("holds the page's first rows, in order, and no more than a tall screen shows", async () => {
    // A sort on a field churn does not change, so the API's page and the HTML's agree whenever each was taken.
    const page = (await (await fetch(`${app.url}/api/rollouts?sort=name`)).json()) as FleetPage;
    expect(page.rows).toHaveLength(100);
    const html = await (await fetch(`${app.url}/?sort=name`)).text();
    expect(rowKeys(html)).toEqual(page.rows.slice(0, FIRST_PAINT_ROWS).map((r) => r.key));
  });

  it("stays small: its size grows with the rows it shows, not with the page it hydrates", async () => {
    const html = await (await fetch(`${app.url}/`)).text();
    expect(rowKeys(html).length).toBeGreaterThan(0);
    expect(Buffer.byteLength(html)).toBeLessThan(MAX_HTML_BYTES);
  });
});
