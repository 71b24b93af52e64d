import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { summarizeLongTasks } from "./long-tasks";
import { readThreadTimes, sampleThreads, threadTimeBetween, type ThreadSample } from "./thread-times";

const onLinux = process.platform === "linux";

describe("a page's long tasks split into its own work and the wait for a core", () => {
  it.runIf(onLinux)("tells a thread's 300 ms of computing from its 300 ms asleep, from outside the process", async () => {
    // The child prints when it starts computing and when it falls asleep (epoch ms), computes 300 ms, sleeps 300 ms.
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const mark = () => console.log(performance.timeOrigin + performance.now());
         setTimeout(() => {
           mark();
           const until = performance.now() + 300; while (performance.now() < until);
           mark();
           Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
           mark();
         }, 200);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const thread = { pid: child.pid!, tid: child.pid! };
    const sampler = await sampleThreads([thread]);
    expect(readThreadTimes(thread)).not.toBeNull();
    await once(child, "exit");
    const [samples] = await sampler.stop();
    const [computing, asleep, woke] = out.trim().split("\n").map(Number);
    // The samples end when the thread does: the sleep's last sampled instant is the last sample before the exit.
    const computed = threadTimeBetween(samples, computing, asleep);
    const slept = threadTimeBetween(samples, asleep + 10, Math.min(woke, samples.at(-1)!.atMs) - 10);
    expect(computed).not.toBeNull();
    expect(slept).not.toBeNull();
    // On a CPU or waiting for one for the whole 300 ms (a busy machine can take some of it), and on a CPU for most.
    expect(computed!.cpuMs + computed!.runQueueMs).toBeGreaterThan(250);
    expect(computed!.cpuMs).toBeGreaterThan(100);
    expect(slept!.cpuMs).toBeLessThan(40);
  });

  it("interpolates each end of a task between the samples around it, and says when the samples miss a task", () => {
    const samples: ThreadSample[] = [
      { atMs: 1000, cpuMs: 0, runQueueMs: 0 },
      { atMs: 1010, cpuMs: 10, runQueueMs: 0 },
      { atMs: 1020, cpuMs: 10, runQueueMs: 10 },
      { atMs: 1030, cpuMs: 20, runQueueMs: 10 },
    ];
    expect(threadTimeBetween(samples, 1005, 1025)).toEqual({ cpuMs: 10, runQueueMs: 10 });
    const long = summarizeLongTasks(
      [
        { startMs: 1000, durationMs: 30 },
        { startMs: 1020, durationMs: 50 }, // ends after the last sample
      ],
      samples,
    );
    expect(long.tasks[0]).toMatchObject({ cpuMs: 20, runQueueMs: 10 });
    expect(long.tasks[1]).toMatchObject({ cpuMs: null, runQueueMs: null });
    // One task not measured: the most CPU of a task is unknown, not the other task's figure.
    expect(long).toMatchObject({ count: 2, longestMs: 50, totalMs: 80, mostCpuMs: null });
    expect(summarizeLongTasks([{ startMs: 1000, durationMs: 30 }], samples).mostCpuMs).toBe(20);
    expect(summarizeLongTasks([], samples)).toMatchObject({ count: 0, longestMs: 0, mostCpuMs: 0 });
  });
});
