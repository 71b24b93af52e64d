import { DeniedRowLimiter } from "./denied-rows";
import { OutcomeBacklog } from "./outcome-backlog";
const ACTED_PER_ROLLOUT = 50;

/**
 * Per Rollout (any key, e.g. `cluster/namespace/name`): runs actions one at a time, so two clicks are checked
 * against each other's result, and remembers the resourceVersions an action already changed (the watch may not show
 * the change yet). Holds state for one process; the app context owns the one instance.
 */
export class RolloutActionGuard {
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly acted = new Map<string, Set<string>>();
  /** Outcomes the audit log could not store yet, written again until stored. */
  readonly outcomeBacklog = new OutcomeBacklog();
  /** How many `denied` rows each user may still add this minute. */
  readonly deniedRows = new DeniedRowLimiter();

  /** Runs `fn` after every earlier call for the same key has settled (failed or not). */
  async runExclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const settled = run.catch(() => undefined);
    this.locks.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    }
  }

  /** Records that an action changed this resourceVersion; the newest 50 per key are kept. */
  rememberActed(key: string, version: string): void {
    const versions = this.acted.get(key) ?? new Set<string>();
    versions.add(version);
    // Sets iterate in insertion order: the first is the oldest.
    if (versions.size > ACTED_PER_ROLLOUT) versions.delete(versions.values().next().value as string);
    this.acted.set(key, versions);
  }

  hasActed(key: string, version: string): boolean {
    return this.acted.get(key)?.has(version) ?? false;
  }
}
