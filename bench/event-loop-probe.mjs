/**
 * Preloaded into the bench's server (`node --import`, through ROLLSCOPE_NODE_FLAGS; production never loads it): each
 * turn of the event loop that kept a 5-ms timer waiting 20 ms or more, and how the main thread spent that time. Linux
 * counts, per thread, the time it ran on a CPU and the time it waited in a run queue for one
 * (`/proc/self/task/<tid>/schedstat`); the rest of a gap the thread was blocked (a system call, a page fault, a lock).
 * A stall the server's own work makes (on a CPU or blocked) is told from one where the thread was ready but the
 * machine's two cores were busy with Chromium, the simulator and Prometheus.
 *
 * Blocked time is not always the server's: the loop also sleeps in its wait for I/O (epoll) until the timer is due,
 * and on this virtual machine a sleeping thread was at times woken up to 100 ms late (no CPU, no run-queue wait, and
 * the CPU profile idle). libuv measures the time the loop spent in that wait (`performance.eventLoopUtilization()`'s
 * idle time), so it is logged too.
 *
 * One line per gap, appended to ROLLSCOPE_BENCH_LOOP_LOG: `<start> <gap> <cpu> <runQueue> <idle> <otherThreads>`, the
 * start on CLOCK_MONOTONIC in milliseconds (the bench's `process.hrtime` and a `--cpu-prof` profile use the same
 * clock), the rest in milliseconds: the gap, the main thread's time on a CPU and waiting for one, the loop's time in
 * its wait for I/O, and the CPU time the server's other threads (garbage collection helpers, libuv's pool) took
 * meanwhile. Without the log variable or off Linux it does nothing.
 */
import fs from "node:fs";
import { performance } from "node:perf_hooks";

const logFile = process.env.ROLLSCOPE_BENCH_LOOP_LOG;
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
const TICK_MS = 5;
const SHORTEST_GAP_MS = 20;

if (logFile && fs.existsSync(schedstat)) {
  const out = fs.openSync(logFile, "a");
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  /** The main thread's time on a CPU and in a run queue, the loop's wait for I/O, the process's CPU time (ms). */
  const read = () => {
    const [onCpu, waiting] = fs.readFileSync(schedstat, "utf8").split(" ");
    const usage = process.cpuUsage();
    const idle = performance.eventLoopUtilization().idle;
    return { cpu: Number(onCpu) / 1e6, runQueue: Number(waiting) / 1e6, idle, process: (usage.user + usage.system) / 1000 };
  };
  let lastAt = now();
  let last = read();
  setInterval(() => {
    const at = now();
    const current = read();
    const gap = at - lastAt;
    if (gap >= SHORTEST_GAP_MS) {
      const cpu = current.cpu - last.cpu;
      const others = Math.max(0, current.process - last.process - cpu);
      const fields = [lastAt, gap, cpu, current.runQueue - last.runQueue, current.idle - last.idle, others].map((v) => v.toFixed(1));
      fs.writeSync(out, `${fields.join(" ")}\n`);
    }
    lastAt = at;
    last = current;
  }, TICK_MS).unref();
}
