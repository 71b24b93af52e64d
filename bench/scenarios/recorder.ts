/**
 * The recorder's stack (`--recorder-only` runs it alone): the fleet at `--recorder-rate` changes a second, then every
 * transition the simulated controllers wrote compared with what the database holds; what the samples cost on disk and
 * the server's CPU per change.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { findLostTransitions, STORED_STATES_SQL, type StoredState } from "../../test/harness/lost-transitions";
import { sleep, type Row } from "../measure";
import { readAppCounters, startStack, waitForFleet, type BenchRun } from "../stack";

/**
 * The pages of the sample tables and their indexes (SQLite's dbstat): what a million samples cost, apart from the
 * events, the other tables and the write-ahead log, which a short run's few samples cannot amortise.
 */
function sampleTableBytes(db: Database.Database): number {
  const tables = ["RolloutSample", "RolloutKey", "SampleMessage"];
  const names = db
    .prepare(`SELECT name FROM sqlite_master WHERE tbl_name IN (${tables.map(() => "?").join(", ")})`)
    .all(...tables) as Array<{ name: string }>;
  const query = db.prepare(`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN (${names.map(() => "?").join(", ")})`);
  return (query.get(...names.map((n) => n.name)) as { bytes: number }).bytes;
}

interface RecorderFigures {
  storedPerSecond: number;
  lost: number;
  compared: number;
  achievedPerSecond: number;
  bytesPerMillion: number;
  fileBytesPerMillion: number;
  drainSeconds: number;
  /** Rollout changes the server's watches delivered a second, and the server's CPU per change (all its work). */
  watchedChangesPerSecond: number;
  cpuMicrosPerChange: number;
  /** Watches that had to list again meanwhile (their history expired): the changes in between cannot be seen. */
  relists: number;
}

async function measureRecorder(run: BenchRun): Promise<RecorderFigures> {
  const { P } = run;
  const stack = await startStack(run, { rollouts: P.rollouts, rate: P.recorderRate });
  try {
    await waitForFleet(stack.app, P.clusters * P.rollouts);
    await sleep(2_000);
    const countersBefore = await readAppCounters(stack.metricsAddress);
    const startRv = new Map(stack.sim.clusters.map((c) => [c.name, Number(c.store.resourceVersion)]));
    const dbFile = path.join(stack.dir, "rollscope.db");
    const db = new Database(dbFile, { readonly: true });
    const before = (db.prepare("SELECT COUNT(*) AS n FROM RolloutSample").get() as { n: number }).n;
    const started = Date.now();
    await sleep(P.recorderSeconds * 1000);
    const elapsed = (Date.now() - started) / 1000;
    const mid = (db.prepare("SELECT COUNT(*) AS n FROM RolloutSample").get() as { n: number }).n;
    // Stop the changes and compare until the watches and the recorder's batches have drained: a transition is lost
    // when it is still missing a minute after the last change, not when the busy server stores it a few seconds late.
    for (const c of stack.sim.clusters) await c.controller.stop();
    const stoppedAt = Date.now();
    const clusters = stack.sim.clusters.map((c) => ({
      name: c.name,
      transitions: c.controller.transitions.entries,
      afterResourceVersion: startRv.get(c.name)!,
    }));
    const compare = () => {
      const stored = db.prepare(STORED_STATES_SQL).all() as StoredState[];
      return { rows: stored, ...findLostTransitions(clusters, stored) };
    };
    let { rows, compared, lost } = compare();
    while (lost.length > 0 && Date.now() - stoppedAt < 60_000) {
      await sleep(1_000);
      ({ rows, compared, lost } = compare());
    }
    const drainSeconds = (Date.now() - stoppedAt) / 1000;
    // From before the changes to the last one stored: every change the watches delivered and all the server did for it.
    const countersAfter = await readAppCounters(stack.metricsAddress);
    const changes = countersAfter.rolloutWatchEvents - countersBefore.rolloutWatchEvents;
    const watchedChangesPerSecond = changes / ((Date.now() - started) / 1000);
    const cpuMicrosPerChange = ((countersAfter.cpuSeconds - countersBefore.cpuSeconds) / Math.max(1, changes)) * 1e6;
    if (lost.length > 0) {
      console.error(`recorder: ${lost.length} transitions still missing after 60 s, e.g. ${lost.slice(0, 5).join("; ")}`);
      console.error(`recorder: the server's last log lines:\n${stack.app.logs().split("\n").slice(-30).join("\n")}`);
    }
    const sampleBytes = sampleTableBytes(db);
    db.close();
    const size = statSync(dbFile).size + (existsSync(`${dbFile}-wal`) ? statSync(`${dbFile}-wal`).size : 0);
    const perMillion = (bytes: number) => (bytes / Math.max(1, rows.length)) * 1e6;
    return {
      storedPerSecond: (mid - before) / elapsed,
      lost: lost.length,
      compared,
      achievedPerSecond: compared / elapsed,
      bytesPerMillion: perMillion(sampleBytes),
      fileBytesPerMillion: perMillion(size),
      drainSeconds,
      watchedChangesPerSecond,
      cpuMicrosPerChange,
      relists: countersAfter.relists - countersBefore.relists,
    };
  } finally {
    await stack.stop();
  }
}

/** The recorder's stack: rows for the table; its figures go into the JSON. */
export async function addRecorderRows(run: BenchRun, rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const { P } = run;
  const recorder = await measureRecorder(run);
  rows.push(
    {
      metric: `Recorder: transitions stored per second (at ${P.recorderRate} changes/s)`,
      value: recorder.storedPerSecond.toFixed(0),
      target: "",
      met: null,
    },
    {
      metric: `Recorder: transitions the simulator wrote per second (asked for ${P.recorderRate})`,
      value: recorder.achievedPerSecond.toFixed(0),
      target: "",
      met: null,
    },
    {
      metric: "Recorder: Rollout changes the server's watches delivered per second, and its CPU per change",
      value: `${recorder.watchedChangesPerSecond.toFixed(0)}; ${recorder.cpuMicrosPerChange.toFixed(0)} µs`,
      target: "",
      met: null,
    },
    {
      metric: `Recorder: transitions lost (of ${recorder.compared}; watches that listed again meanwhile: ${recorder.relists})`,
      value: String(recorder.lost),
      target: "0",
      met: recorder.lost === 0,
    },
    {
      metric: "Recorder: every transition stored, after the changes stopped",
      value: recorder.lost === 0 ? `${recorder.drainSeconds.toFixed(0)} s` : "not within 60 s",
      target: "≤ 5 s",
      met: recorder.lost === 0 && recorder.drainSeconds <= 5,
    },
    {
      metric: "Recorder: database bytes per million samples (sample tables and their indexes)",
      value: `${(recorder.bytesPerMillion / 1024 / 1024).toFixed(0)} MB`,
      target: "≤ 150 MB",
      met: recorder.bytesPerMillion / 1024 / 1024 <= 150,
    },
    {
      metric: "Recorder: whole database file and WAL per sample stored, × 1 million (events included)",
      value: `${(recorder.fileBytesPerMillion / 1024 / 1024).toFixed(0)} MB`,
      target: "",
      met: null,
    },
  );
  figures.recorder = recorder;
}
