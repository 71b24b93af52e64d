/** 30 → "30%", 33.333 → "33.3%", null → "—". Weights arrive as percentages of maxTrafficWeight. */
export function formatPercent(value: number | null | undefined, maxFractionDigits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const factor = 10 ** maxFractionDigits;
  const rounded = Math.round(value * factor) / factor;
  return `${Object.is(rounded, -0) ? 0 : rounded}%`;
}

/** Clamps a percentage into 0–100 for drawing bars; null/NaN becomes 0. */
export function clampPercent(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, value));
}
