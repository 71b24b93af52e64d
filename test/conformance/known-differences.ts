import type { KnownDifference } from "./compare";

/**
 * Differences between the simulator and the real controller that are understood and accepted, each with why.
 * docs/fidelity.md lists the same. The conformance test fails on any difference not matched here, and on an entry
 * here that no longer matches anything (so the list cannot go stale).
 */
export const KNOWN_DIFFERENCES: KnownDifference[] = [];
