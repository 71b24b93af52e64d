import { z } from "zod";

const timeScaleSchema = z.coerce.number().positive().max(10_000);

/**
 * How much faster than real time the demo's simulated clusters run (`ROLLSCOPE_DEMO_TIME_SCALE`, set by
 * `npm run demo -- --speed N`), so the header can say so; null for real clusters, real time or an unreadable value.
 */
export function readDemoTimeScale(env: Readonly<Record<string, string | undefined>> = process.env): number | null {
  const raw = env.ROLLSCOPE_DEMO_TIME_SCALE;
  if (raw === undefined || raw === "") return null;
  const parsed = timeScaleSchema.safeParse(raw);
  return parsed.success && parsed.data !== 1 ? parsed.data : null;
}
