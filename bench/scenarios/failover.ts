import { failoverRows, measureFailover } from "../failover";
import type { Row } from "../measure";

/** The replica failover gap (not in short mode: it starts PostgreSQL and two more servers, about a minute). */
export async function addFailoverRows(rows: Row[], figures: Record<string, unknown>): Promise<void> {
  console.log("failover: two replicas on one PostgreSQL, SIGKILL of the recording one…");
  const failover = await measureFailover();
  if ("skipped" in failover) console.log(`failover: skipped, ${failover.skipped}`);
  rows.push(...failoverRows(failover));
  figures.failover = failover;
}
