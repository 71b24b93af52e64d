/**
 * Wall-clock timestamps, scaled durations: every timestamp the simulator writes is real time (so a dashboard's
 * "now" agrees with it), while every duration from a spec (pauses, analysis intervals, scale-down delays) is
 * divided by `timeScale`. With timeScale 60 a `pause: {duration: 5m}` ends 5 real seconds after its startTime.
 */
export class SimClock {
  private lastIsoMs = Number.NaN;
  private lastIso = "";

  constructor(
    readonly timeScale: number,
    private readonly nowFn: () => number = Date.now,
  ) {}

  now(): number {
    return this.nowFn();
  }

  /** RFC 3339 with second precision, as metav1.Time serializes. */
  iso(ms: number = this.now()): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.lastIsoMs) {
      this.lastIsoMs = second;
      this.lastIso = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    }
    return this.lastIso;
  }

  /** Real milliseconds that `simSeconds` of simulated time take. */
  realMs(simSeconds: number): number {
    return (simSeconds * 1000) / this.timeScale;
  }

  /** Simulated seconds elapsed since a real epoch-ms instant. */
  simSecondsSince(ms: number): number {
    return ((this.now() - ms) * this.timeScale) / 1000;
  }

  /** Simulated seconds since an RFC 3339 timestamp; `precise` (epoch ms) wins when the writer kept it. */
  simSecondsSinceIso(iso: string, precise?: number): number {
    return this.simSecondsSince(precise ?? Date.parse(iso));
  }
}
