import type { QueryClient } from "@tanstack/react-query";
import type { LiveDelta } from "@/lib/contracts/stream";

/** Enough for a page request of a few seconds at 50 changes/s fleet-wide, with room to spare. */
const KEEP = 2_000;

/**
 * The deltas this tab applied most recently, by stream sequence number. A page fetched from `/api/rollouts` says
 * which sequence number it reflects; deltas after it that arrived while the request was in flight are applied on
 * top, so a response never rolls a row back to an older state.
 */
export class RecentDeltas {
  private entries: Array<{ seq: number; delta: LiveDelta }> = [];
  /** The sequence number the current stream started from: a page older than it may lack changes never streamed here. */
  streamStart = 0;
  /** How far the stream has come although no delta was sent here (its `position` events). */
  private position = 0;

  record(seq: number, delta: LiveDelta): void {
    this.entries.push({ seq, delta });
    if (this.entries.length > KEEP * 1.5) this.entries = this.entries.slice(-KEEP);
  }

  /** The stream says it is current to `seq` although it sent no delta up to there (none of them was for this tab). */
  advance(seq: number): void {
    if (Number.isSafeInteger(seq)) this.position = Math.max(this.position, seq);
  }

  /** The sequence number this tab is current to: its newest delta, or further when the stream said so. */
  newestSeq(): number {
    const newest = this.entries.length > 0 ? this.entries[this.entries.length - 1].seq : this.streamStart;
    return Math.max(newest, this.position);
  }

  /** Deltas newer than `seq`, oldest first. */
  after(seq: number): LiveDelta[] {
    const out: LiveDelta[] = [];
    for (let i = this.entries.length - 1; i >= 0 && this.entries[i].seq > seq; i--) out.push(this.entries[i].delta);
    return out.reverse();
  }

  /** A new stream began at `seq`: earlier deltas (and numbering, after a server restart) no longer apply. */
  reset(seq: number): void {
    this.entries = [];
    this.streamStart = seq;
    this.position = 0;
  }
}

const byClient = new WeakMap<QueryClient, RecentDeltas>();

/** The recent deltas of this tab's query client (one per tab). */
export function recentDeltasOf(client: QueryClient): RecentDeltas {
  let recent = byClient.get(client);
  if (!recent) {
    recent = new RecentDeltas();
    byClient.set(client, recent);
  }
  return recent;
}
