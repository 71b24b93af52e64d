/** Label and field selectors with the syntax and semantics of apimachinery's `labels.Parse` and `fields.ParseSelector`. */

type Requirement =
  | { key: string; op: "=" | "!="; values: [string] }
  | { key: string; op: "in" | "notin"; values: string[] }
  | { key: string; op: "exists" | "!exists"; values: [] };

export class SelectorError extends Error {}

/** Splits on commas that are not inside parentheses (`env in (a,b),tier=web`). */
function splitTopLevel(input: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of input) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

export function parseLabelSelector(selector: string | undefined | null): Requirement[] {
  if (!selector) return [];
  return splitTopLevel(selector).map((part) => {
    const setMatch = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    if (setMatch) {
      const values = setMatch[3]
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
      return { key: setMatch[1], op: setMatch[2] as "in" | "notin", values };
    }
    const eqMatch = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(part);
    if (eqMatch) {
      return { key: eqMatch[1], op: eqMatch[2] === "!=" ? "!=" : "=", values: [eqMatch[3]] as [string] };
    }
    const notExists = /^!\s*([\w./-]+)$/.exec(part);
    if (notExists) return { key: notExists[1], op: "!exists", values: [] as [] };
    if (/^[\w./-]+$/.test(part)) return { key: part, op: "exists", values: [] as [] };
    throw new SelectorError(`unable to parse requirement: "${part}"`);
  });
}

export function matchesLabels(requirements: Requirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return requirements.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.op) {
      case "=":
        return has && l[r.key] === r.values[0];
      case "!=":
        return !has || l[r.key] !== r.values[0];
      case "in":
        return has && r.values.includes(l[r.key]);
      case "notin":
        return !has || !r.values.includes(l[r.key]);
      case "exists":
        return has;
      case "!exists":
        return !has;
    }
  });
}

export interface FieldRequirement {
  path: string;
  op: "=" | "!=";
  value: string;
}

export function parseFieldSelector(selector: string | undefined | null, allowed: (path: string) => boolean): FieldRequirement[] {
  if (!selector) return [];
  return splitTopLevel(selector).map((part) => {
    const m = /^([\w.]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m) throw new SelectorError(`invalid selector: '${part}'; can't understand '${part}'`);
    if (!allowed(m[1])) throw new SelectorError(`field label not supported: ${m[1]}`);
    return { path: m[1], op: m[2] === "!=" ? "!=" : "=", value: m[3] };
  });
}

function readPath(obj: unknown, path: string): string {
  let current: unknown = obj;
  for (const key of path.split(".")) {
    if (typeof current !== "object" || current === null) return "";
    current = (current as Record<string, unknown>)[key];
  }
  return current === undefined || current === null ? "" : String(current);
}

export function matchesFields(requirements: FieldRequirement[], obj: unknown): boolean {
  return requirements.every((r) => (readPath(obj, r.path) === r.value) === (r.op === "="));
}
