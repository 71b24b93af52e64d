import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
/** V8's full collection, exposed at run time (a new context sees the flag; this one was created before it). */
const collectGarbage = runInNewContext("gc") as () => void;

/** The V8 heap this process keeps alive after full collections. */
function keptHeapBytes(): number {
  for (let i = 0; i < 3; i++) collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** How much more heap this process keeps alive after `work` than before it (what the work left referenced). */
export async function heapKeptBy(work: () => Promise<void>): Promise<number> {
  const before = keptHeapBytes();
  await work();
  return keptHeapBytes() - before;
}
