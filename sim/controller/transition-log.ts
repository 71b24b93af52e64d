/** One status write by the simulated controller that changed step, phase, canary weight, verified or revision. */
export interface TransitionEntry {
  /** Wall-clock time of the write, ISO 8601 with milliseconds. */
  at: string;
  cluster: string;
  namespace: string;
  name: string;
  /** `rollout.argoproj.io/revision` at the time of the write. */
  revision: number;
  /** status.currentStepIndex; null when the rollout has no steps (blue-green, or no steps). */
  stepIndex: number | null;
  phase: string;
  /** The weight the steps ask for (`GetCurrentSetWeight`); absent without traffic routing. */
  requestedWeight?: number;
  /** status.canary.weights.canary.weight; null when weights are absent. */
  canaryWeight: number | null;
  stableWeight: number | null;
  /** status.canary.weights.verified; null when absent (NotImplemented or no weights). */
  verified: boolean | null;
  /** metadata.resourceVersion of the Rollout after the write. */
  resourceVersion: string;
}

type Key = Pick<TransitionEntry, "revision" | "stepIndex" | "phase" | "canaryWeight" | "verified">;

/**
 * Every controller status write that changed one of (step, phase, canary weight, verified, revision) compared
 * with the previous entry for the same rollout. Bounded: the oldest entries go first.
 */
export class TransitionLog {
  private readonly items: TransitionEntry[] = [];
  private readonly last = new Map<string, Key>();
  private readonly listeners = new Set<(entry: TransitionEntry) => void>();

  constructor(private readonly maxEntries = 50_000) {}

  /** Records the write when it changed a tracked field; returns whether it did. */
  observe(entry: TransitionEntry): boolean {
    const id = `${entry.namespace}/${entry.name}`;
    const prev = this.last.get(id);
    if (
      prev &&
      prev.revision === entry.revision &&
      prev.stepIndex === entry.stepIndex &&
      prev.phase === entry.phase &&
      prev.canaryWeight === entry.canaryWeight &&
      prev.verified === entry.verified
    ) {
      return false;
    }
    this.last.set(id, {
      revision: entry.revision,
      stepIndex: entry.stepIndex,
      phase: entry.phase,
      canaryWeight: entry.canaryWeight,
      verified: entry.verified,
    });
    this.items.push(entry);
    if (this.items.length > this.maxEntries * 1.1) this.items.splice(0, this.items.length - this.maxEntries);
    for (const listener of this.listeners) listener(entry);
    return true;
  }

  get entries(): readonly TransitionEntry[] {
    return this.items;
  }

  for(namespace: string, name: string): TransitionEntry[] {
    return this.items.filter((e) => e.namespace === namespace && e.name === name);
  }

  subscribe(listener: (entry: TransitionEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forgets a deleted rollout so a re-created one starts a fresh sequence. */
  forget(namespace: string, name: string): void {
    this.last.delete(`${namespace}/${name}`);
  }
}
