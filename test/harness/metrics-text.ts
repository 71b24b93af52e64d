/** One sample of Prometheus's text format: `name{label="value",…} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseLine(line: string): Sample | null {
  const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
  if (!match || line.startsWith("#")) return null;
  const labels: Record<string, string> = {};
  for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
  return { name: match[1], labels, value: Number(match[3]) };
}

/** Every sample of `name` whose labels include `labels`. */
export function samplesOf(text: string, name: string, labels: Record<string, string> = {}): Sample[] {
  return text
    .split("\n")
    .map(parseLine)
    .filter((s): s is Sample => s !== null && s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The sum of the matching samples (0 when there is none: a counter not yet incremented). */
export function sumOf(text: string, name: string, labels: Record<string, string> = {}): number {
  return samplesOf(text, name, labels).reduce((sum, s) => sum + s.value, 0);
}
