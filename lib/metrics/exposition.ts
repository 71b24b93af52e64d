import type { Labels } from "./types";

/**
 * One sample line of a wanted family, as the text has it: a counter's, or a histogram's `_bucket`, `_sum` or
 * `_count`. Its labels stay text until someone needs them ({@link parseSeriesLabels}): a scrape of a 400-Rollout
 * cluster has about 5,000 such lines, and the scraper stores only the few whose value changed.
 */
export interface ExpositionSample {
  metric: string;
  /** The sample's name and label set exactly as written (`name{a="1",b="2"}`): one series, within one exporter's text. */
  series: string;
  value: number;
}

/** Raised for a line of a wanted family that is not in the text exposition format; the scrape is then failed and shown. */
export class ExpositionError extends Error {
  constructor(lineNumber: number, reason: string, line: string) {
    super(`metrics text, line ${lineNumber}: ${reason}: ${line.slice(0, 120)}`);
    this.name = "ExpositionError";
  }
}

const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const HASH = 35;
const META = /^#\s+TYPE\s+([a-zA-Z_:][a-zA-Z0-9_:]*)\s+(\w+)/;

function isNameChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 58;
}

function skipBlanks(text: string, i: number, end: number): number {
  while (i < end && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  return i;
}

/** A sample's family among the wanted ones: its own name, or a histogram's name under `_bucket`, `_sum`, `_count`. */
function familyOf(sampleName: string, families: ReadonlySet<string>): string | null {
  if (families.has(sampleName)) return sampleName;
  const base = sampleName.replace(/_(bucket|sum|count)$/, "");
  return base !== sampleName && families.has(base) ? base : null;
}

function parseValue(token: string): number {
  switch (token) {
    case "+Inf":
    case "Inf":
      return Infinity;
    case "-Inf":
      return -Infinity;
    case "NaN":
      return NaN;
    default:
      return token === "" ? NaN : Number(token);
  }
}

/**
 * The sample lines of the wanted families in a text exposition (what the controller serves on :8090/metrics), in
 * one pass over the text without splitting it: a line of another family costs a look at its name. Summary families
 * are left out (their quantiles are not counters). A malformed line of a wanted family throws
 * {@link ExpositionError}; foreign families are never read, so one the parser would reject cannot fail the scrape.
 */
export function readExpositionSamples(text: string, families: ReadonlySet<string>): ExpositionSample[] {
  const samples: ExpositionSample[] = [];
  const summaries = new Set<string>();
  /** Each sample name's family, or null: a text repeats a few dozen names thousands of times. */
  const familyByName = new Map<string, string | null>();
  let lineNumber = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const next = end + 1;
    lineNumber++;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    const first = skipBlanks(text, start, end);
    if (first === end) {
      start = next;
      continue;
    }
    if (text.charCodeAt(first) === HASH) {
      const type = META.exec(text.slice(first, end));
      if (type && type[2] === "summary" && families.has(type[1])) summaries.add(type[1]);
      start = next;
      continue;
    }
    let i = first;
    while (i < end && isNameChar(text.charCodeAt(i))) i++;
    const metric = text.slice(first, i);
    let family = familyByName.get(metric);
    if (family === undefined) familyByName.set(metric, (family = metric === "" ? null : familyOf(metric, families)));
    if (family === null || summaries.has(family)) {
      start = next;
      continue;
    }
    if (i < end && text.charCodeAt(i) === OPEN_BRACE) {
      i++;
      let quoted = false;
      for (; i < end; i++) {
        const code = text.charCodeAt(i);
        if (quoted) {
          if (code === BACKSLASH) i++;
          else if (code === QUOTE) quoted = false;
        } else if (code === QUOTE) quoted = true;
        else if (code === CLOSE_BRACE) break;
      }
      if (i >= end) throw new ExpositionError(lineNumber, "labels without a closing brace", text.slice(start, end));
      i++;
    }
    const series = text.slice(first, i);
    const valueStart = skipBlanks(text, i, end);
    if (valueStart === i) throw new ExpositionError(lineNumber, "no space before the value", text.slice(start, end));
    let valueEnd = valueStart;
    while (valueEnd < end && text.charCodeAt(valueEnd) !== SPACE && text.charCodeAt(valueEnd) !== TAB) valueEnd++;
    const token = text.slice(valueStart, valueEnd);
    const value = parseValue(token);
    if (Number.isNaN(value) && token !== "NaN")
      throw new ExpositionError(lineNumber, `value ${JSON.stringify(token)} is not a number`, text.slice(start, end));
    samples.push({ metric, series, value });
    start = next;
  }
  return samples;
}

/** The labels of a series as {@link readExpositionSamples} gives it (`name{a="1",b="x\"y"}`), unescaped. */
export function parseSeriesLabels(series: string): Labels {
  const labels: Labels = {};
  let i = series.indexOf("{");
  if (i === -1) return labels;
  i++;
  const end = series.length - 1; // the closing brace
  while (i < end) {
    i = skipBlanks(series, i, end);
    if (i >= end) break;
    const nameStart = i;
    while (i < end && isNameChar(series.charCodeAt(i))) i++;
    const name = series.slice(nameStart, i);
    i = skipBlanks(series, i, end);
    if (name === "" || series[i] !== "=") throw new Error(`malformed labels: ${series.slice(0, 120)}`);
    i = skipBlanks(series, i + 1, end);
    if (series.charCodeAt(i) !== QUOTE) throw new Error(`malformed labels: ${series.slice(0, 120)}`);
    i++;
    let value = "";
    let runStart = i;
    for (; i < end; i++) {
      const code = series.charCodeAt(i);
      if (code === QUOTE) break;
      if (code === BACKSLASH) {
        value += series.slice(runStart, i);
        const escaped = series[i + 1];
        value += escaped === "n" ? "\n" : escaped;
        i++;
        runStart = i + 1;
      }
    }
    if (i >= end) throw new Error(`malformed labels: ${series.slice(0, 120)}`);
    value += series.slice(runStart, i);
    // Defined, not assigned: a label named __proto__ is a label, not the object's prototype.
    if (name === "__proto__") Object.defineProperty(labels, name, { value, enumerable: true, writable: true, configurable: true });
    else labels[name] = value;
    i = skipBlanks(series, i + 1, end);
    if (series[i] === ",") i++;
  }
  return labels;
}
