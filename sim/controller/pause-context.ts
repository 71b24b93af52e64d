import type { PauseCondition, PauseReason, Rollout, RolloutStatus, CanaryStep } from "./types";
import { durationSeconds } from "./duration";

/** Port of `rollout/pause.go`'s pauseContext: pause/abort intents collected during a reconcile, applied at persist. */
export class PauseContext {
  private readonly addReasons: PauseReason[] = [];
  private readonly removeReasons: PauseReason[] = [];
  private clear = false;
  private addAbortFlag = false;
  private removeAbortFlag = false;
  abortMessage = "";

  constructor(
    /** The rollout as last read: a reconcile refreshes it after its own writes, as upstream keeps c.rollout. */
    private readonly current: () => Rollout,
    private readonly nowIso: () => string,
  ) {}

  private get rollout(): Rollout {
    return this.current();
  }

  hasAddPause(): boolean {
    return this.addReasons.length > 0;
  }

  isAborted(): boolean {
    if (this.removeAbortFlag) return false;
    return this.addAbortFlag || !!this.rollout.status?.abort;
  }

  addAbort(message: string): void {
    this.addAbortFlag = true;
    this.abortMessage = message;
  }

  removeAbort(): void {
    this.removeAbortFlag = true;
  }

  addPauseCondition(reason: PauseReason): void {
    this.addReasons.push(reason);
  }

  removePauseCondition(reason: PauseReason): void {
    this.removeReasons.push(reason);
  }

  clearPauseConditions(): void {
    this.clear = true;
  }

  /** `CalculatePauseStatus`: writes abort/abortedAt, or pauseConditions/controllerPause, into the new status. */
  calculatePauseStatus(newStatus: RolloutStatus): void {
    if (this.calculateAbortStatus(newStatus)) return;
    if (this.clear) return;
    const previous = this.rollout.status ?? {};
    let controllerPause = !!previous.controllerPause;
    const remove = new Set(this.removeReasons);
    const exists = new Set<PauseReason>();
    const next: PauseCondition[] = [];
    for (const cond of previous.pauseConditions ?? []) {
      if (!remove.has(cond.reason)) next.push(cond);
      exists.add(cond.reason);
    }
    for (const reason of this.addReasons) {
      if (exists.has(reason)) continue;
      next.push({ reason, startTime: this.nowIso() });
      exists.add(reason);
      controllerPause = true;
    }
    if (next.length === 0) return;
    newStatus.controllerPause = controllerPause;
    newStatus.pauseConditions = next;
  }

  private calculateAbortStatus(newStatus: RolloutStatus): boolean {
    const previous = this.rollout.status ?? {};
    if (this.addAbortFlag || (!this.removeAbortFlag && previous.abort)) {
      newStatus.abort = true;
      newStatus.abortedAt = previous.abortedAt ?? this.nowIso();
      return true;
    }
    delete newStatus.abort;
    delete newStatus.abortedAt;
    return false;
  }
}

export function getPauseCondition(ro: Rollout, reason: PauseReason): PauseCondition | undefined {
  return ro.status?.pauseConditions?.find((c) => c.reason === reason);
}

/**
 * `CompletedCanaryPauseStep`: an unpause by the user (controllerPause with the condition gone), or the duration
 * elapsed since the condition's startTime. `elapsedSimSeconds` converts a startTime into simulated seconds.
 */
export function completedCanaryPauseStep(
  ro: Rollout,
  pause: NonNullable<CanaryStep["pause"]>,
  elapsedSimSeconds: (cond: PauseCondition) => number,
): boolean {
  const cond = getPauseCondition(ro, "CanaryPauseStep");
  if (ro.status?.controllerPause && !cond) return true;
  const seconds = durationSeconds(pause.duration);
  if (seconds !== null && cond) return elapsedSimSeconds(cond) > seconds;
  return false;
}
