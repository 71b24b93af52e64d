import type { z } from "zod";

export type ParseResult<K extends string, T> = ({ ok: true } & { [P in K]: T }) | { ok: false; error: string };

/** Renders zod issues as `spec.strategy.canary.steps[3].setWeight: expected number, received string`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${formatPath(issue.path) || "(root)"}: ${issue.message}`).join("; ");
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === "number") return `${out}[${key}]`;
    const name = String(key);
    return out === "" ? name : `${out}.${name}`;
  }, "");
}
