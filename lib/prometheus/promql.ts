import { parser } from "@prometheus-io/lezer-promql";

/** A PromQL syntax problem, with the 1-based column it was found at. */
export interface PromqlSyntaxError {
  column: number;
  message: string;
}

/**
 * Syntax check with the Prometheus project's own PromQL grammar (the one its web UI uses). Null when the text
 * parses; otherwise where the parser first gave up. Semantic errors (unknown functions' arity, type mismatches)
 * are left to Prometheus, which answers them with `bad_data`.
 */
export function checkPromqlSyntax(promql: string): PromqlSyntaxError | null {
  if (promql.trim() === "") return { column: 1, message: "is empty" };
  const tree = parser.parse(promql);
  let errorAt: number | null = null;
  tree.iterate({
    enter(node) {
      if (errorAt === null && node.type.isError) errorAt = node.from;
      return errorAt === null;
    },
  });
  if (errorAt === null) return null;
  const at: number = errorAt;
  const near = promql.slice(at, at + 12);
  return {
    column: at + 1,
    message: near ? `unexpected input near "${near}" at column ${at + 1}` : `unexpected end of query at column ${at + 1}`,
  };
}

/**
 * Adds label matchers (e.g. `cluster="prod-eu"`) to every vector selector of a query, so one Prometheus or
 * Thanos shared by several clusters answers for one of them. Selectors inside strings are left alone because
 * the grammar, not a regex, finds them.
 */
export function injectLabelMatchers(promql: string, matchers: string | undefined): string {
  const extra = matchers?.trim();
  if (!extra) return promql;
  const edits: Array<{ at: number; text: string }> = [];
  const tree = parser.parse(promql);
  const cursor = tree.cursor();
  do {
    if (cursor.type.name !== "VectorSelector") continue;
    const selector = cursor.node;
    const labelMatchers = selector.getChild("LabelMatchers");
    if (labelMatchers) {
      const inner = promql.slice(labelMatchers.from + 1, labelMatchers.to - 1).trim();
      edits.push({ at: labelMatchers.from + 1, text: inner === "" ? extra : `${extra}, ` });
    } else {
      const identifier = selector.getChild("Identifier");
      if (identifier) edits.push({ at: identifier.to, text: `{${extra}}` });
    }
  } while (cursor.next());
  return edits.sort((a, b) => b.at - a.at).reduce((text, edit) => text.slice(0, edit.at) + edit.text + text.slice(edit.at), promql);
}

/** Metric names the query selects by name (`foo{…}`), for the scrape mode to know which families to keep. */
export function listSelectedMetrics(promql: string): string[] {
  const names = new Set<string>();
  const tree = parser.parse(promql);
  const cursor = tree.cursor();
  do {
    if (cursor.type.name !== "VectorSelector") continue;
    const identifier = cursor.node.getChild("Identifier");
    if (identifier) names.add(promql.slice(identifier.from, identifier.to));
  } while (cursor.next());
  return [...names];
}

const VARIABLE = /\$\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** `${name}` placeholders used by a template, in order of first use. */
export function listTemplateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(VARIABLE)].map((match) => match[1]))];
}

/** Escapes a value for use inside a double-quoted PromQL string. */
function escapePromqlString(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** Escapes a literal for a RE2 regex matcher inside a double-quoted PromQL string (`=~"a|b"`). */
function escapePromqlRegex(value: string): string {
  return escapePromqlString(value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

/**
 * `promql` with every series of its answer labelled `label="value"`: `label_replace` from the empty source label, whose
 * empty value always matches the empty regex. Lets one query carry several (`a or b`) whose answers stay apart. The
 * query ends its own line: a `# comment` at its end (valid PromQL) must not swallow what follows.
 */
export function labelEverySeries(promql: string, label: string, value: string): string {
  return `label_replace(${promql}\n, "${label}", "${escapePromqlString(value)}", "", "")`;
}

export type TemplateRender = { ok: true; promql: string } | { ok: false; missing: string[] };

/**
 * Where the template's regex matcher operands are: string literals right after `=~` or `!~`, as [start, end) offsets.
 * Strings are found by scanning quotes with their escapes (Go rules: none inside backticks), so `${…}` placeholders
 * inside them need no special care.
 */
function regexOperandSpans(template: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < template.length; i++) {
    const quote = template[i];
    if (quote !== '"' && quote !== "'" && quote !== "`") continue;
    const start = i;
    for (i++; i < template.length && template[i] !== quote; i++) if (template[i] === "\\" && quote !== "`") i++;
    if (/[=!]~\s*$/.test(template.slice(0, start))) spans.push([start, i]);
  }
  return spans;
}

/**
 * Replaces `${name}` with the value's PromQL-escaped text; inside a regex matcher (`=~"${canaryService}|…"`) the
 * value is also regex-escaped, so an object name matches itself only (a `.` in a name is no wildcard). Every
 * variable must have a value: a query with an empty service or hash would silently select the wrong series, so the
 * caller reports what is missing instead.
 */
export function renderPromqlTemplate(template: string, values: Readonly<Record<string, string | null | undefined>>): TemplateRender {
  const missing = listTemplateVariables(template).filter((name) => {
    const value = values[name];
    return value === undefined || value === null || value === "";
  });
  if (missing.length > 0) return { ok: false, missing };
  const regexSpans = regexOperandSpans(template);
  const inRegex = (offset: number) => regexSpans.some(([start, end]) => offset > start && offset < end);
  const promql = template.replace(VARIABLE, (_, name: string, offset: number) => {
    const value = String(values[name]);
    return inRegex(offset) ? escapePromqlRegex(value) : escapePromqlString(value);
  });
  return { ok: true, promql };
}

/** A Prometheus duration for a number of seconds (`90s`, `5m`, `1h`). */
export function formatPromDuration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s % 3600 === 0) return `${s / 3600}h`;
  if (s % 60 === 0) return `${s / 60}m`;
  return `${s}s`;
}

/** Parses a Prometheus duration such as `30s`, `1m`, `1h30m`; null when it is not one. */
export function parsePromDuration(text: string): number | null {
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 };
  if (!/^(\d+(ms|s|m|h|d|w|y))+$/.test(text)) return null;
  let total = 0;
  for (const match of text.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)) total += Number(match[1]) * units[match[2]];
  return total;
}

export type LabelFilter = Readonly<Record<string, string | readonly string[]>>;

/** `{a="x", b=~"y|z"}` for exact values and value sets (an empty set matches nothing, as `=~""` would not). */
export function formatLabelFilter(filter: LabelFilter | undefined): string {
  const parts: string[] = [];
  for (const [label, value] of Object.entries(filter ?? {})) {
    if (typeof value === "string") parts.push(`${label}="${escapePromqlString(value)}"`);
    else if (value.length === 1) parts.push(`${label}="${escapePromqlString(value[0])}"`);
    else parts.push(`${label}=~"${value.length === 0 ? "$^" : value.map(escapePromqlRegex).join("|")}"`);
  }
  return parts.length === 0 ? "" : `{${parts.join(", ")}}`;
}

/**
 * `sum by (…) (increase(metric{…}[window]))`: evaluated by query_range with step = window, each point is the
 * counter's increase over the window that ends at it, so consecutive points do not overlap.
 */
export function buildIncreaseQuery(input: {
  metric: string;
  filter?: LabelFilter;
  by: readonly string[];
  windowSeconds: number;
  labelMatchers?: string;
}): string {
  const selector = `${input.metric}${formatLabelFilter(input.filter)}`;
  const query = `sum by (${input.by.join(", ")}) (increase(${selector}[${formatPromDuration(input.windowSeconds)}]))`;
  return injectLabelMatchers(query, input.labelMatchers);
}

/** One part of a grouped increase query (see buildGroupedIncreaseQuery). */
export interface GroupedIncreasePart {
  metric: string;
  filter?: LabelFilter;
  by: readonly string[];
}

/**
 * `metric{matchers, filter, namespace="ns", name=~"a|b"}` selectors of a group's Rollouts, one per namespace, with the
 * configured label matchers first, as injectLabelMatchers would add them: the selectors are built here, so the query
 * need not be parsed to find them (at 250 Rollouts a cluster the grammar took about 30 ms a query, on the event loop).
 */
function groupSelectors(
  part: GroupedIncreasePart,
  rollouts: ReadonlyArray<{ namespace: string; name: string }>,
  labelMatchers: string | undefined,
): string[] {
  const namesByNamespace = new Map<string, Set<string>>();
  for (const r of rollouts) namesByNamespace.set(r.namespace, (namesByNamespace.get(r.namespace) ?? new Set()).add(r.name));
  const extra = labelMatchers?.trim();
  return [...namesByNamespace].map(([namespace, names]) => {
    const filter = formatLabelFilter({ ...part.filter, namespace, name: [...names] });
    return `${part.metric}${extra ? `{${extra}, ${filter.slice(1)}` : filter}`;
  });
}

/**
 * Each part's increase summed per group of Rollouts in ONE query: every group's series of every part are selected
 * by namespace and name, summed by the part's `by` labels, and labelled with the group's key (`groupLabel`) and the
 * part's index (`partLabel`). Prometheus answers with one series per group, part and `by` value
 * rather than one per Rollout. Group keys are used verbatim as label values: keep them to `[A-Za-z0-9_-]`. Null when
 * no group has a Rollout (there is nothing to ask).
 */
export function buildGroupedIncreaseQuery(input: {
  parts: readonly GroupedIncreasePart[];
  groups: ReadonlyArray<{ key: string; rollouts: ReadonlyArray<{ namespace: string; name: string }> }>;
  windowSeconds: number;
  groupLabel: string;
  partLabel: string;
  labelMatchers?: string;
}): string | null {
  const window = formatPromDuration(input.windowSeconds);
  const terms: string[] = [];
  input.parts.forEach((part, index) => {
    for (const group of input.groups) {
      const selectors = groupSelectors(part, group.rollouts, input.labelMatchers);
      if (selectors.length === 0) continue;
      const increases = selectors.map((selector) => `increase(${selector}[${window}])`).join(" or ");
      // Summed inside the term, before the tags and the `or` between terms: each `or` and the outer sum then take a
      // few series per group instead of one per Rollout and bucket (thousands at 250 Rollouts a cluster).
      const summed = `sum${part.by.length > 0 ? ` by (${part.by.join(", ")})` : ""} (${increases})`;
      const tagged = `label_replace(${summed}, "${input.partLabel}", "${index}", "", "")`;
      terms.push(`label_replace(${tagged}, "${input.groupLabel}", "${escapePromqlString(group.key)}", "", "")`);
    }
  });
  if (terms.length === 0) return null;
  const by = [...new Set([input.groupLabel, input.partLabel, ...input.parts.flatMap((p) => p.by)])];
  return `sum by (${by.join(", ")}) (${terms.join(" or ")})`;
}
