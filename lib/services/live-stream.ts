import "server-only";
import type { AuthUser } from "@/lib/auth/types";
import type { FocusedRollout, StreamQuery } from "@/lib/contracts/stream";
import { createFleetEventStream } from "@/lib/live/sse-stream";
import { parseRolloutKey } from "@/lib/rollouts/rollout-ref";
import { parseRollout } from "@/lib/rollouts/schema";
import type { AppContext } from "@/lib/server/app-context";
import { fingerprintToken } from "./rollout-actions";

/** The whole live view of one Rollout, as an open detail page needs it with no request of its own. */
export function getFocusedRollout(app: AppContext, key: string): FocusedRollout {
  const ref = parseRolloutKey(key) ?? { cluster: "", namespace: "", name: key };
  const { cluster, namespace, name } = ref;
  const watcher = app.fleet.cluster(cluster);
  const rollout = watcher?.rollout(namespace, name) ?? null;
  const parsed = rollout ? parseRollout(watcher?.rawRollout(namespace, name)) : null;
  return { ref, rollout, actionFingerprint: parsed?.ok ? fingerprintToken(parsed.rollout) : null };
}

/**
 * The tab's `/api/stream` body: resumes after `since` (or Last-Event-ID) and follows the focused Rollouts. It ends
 * when the request does or when the user's session is revoked or expires (the browser's reconnect then gets 401).
 */
export function openLiveStream(
  app: AppContext,
  { query, lastEventId, signal, user }: { query: StreamQuery; lastEventId: string | null; signal: AbortSignal; user: AuthUser },
): ReadableStream<Uint8Array> {
  const resume = query.since ?? (lastEventId && /^\d+$/.test(lastEventId) ? lastEventId : null);
  return createFleetEventStream(app.deltaLog, {
    resumeFrom: resume === null ? null : Number(resume),
    signal: user.sessionId ? app.sessions.untilEnded(user.sessionId, signal) : signal,
    focus: new Set(query.focus),
    focusedView: (key) => getFocusedRollout(app, key),
  });
}
