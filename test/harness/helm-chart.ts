import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments, stringify } from "yaml";

/** Running helm and kubeconform on charts/rollscope, and reading what it renders. */

export const CHART_DIR = path.resolve(import.meta.dirname, "../../charts/rollscope");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(binary: string, args: string[], input?: string, env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"], env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

let valuesCount = 0;

/** A values file in the given folder (helm reads values from files). */
export function valuesFile(dir: string, values: unknown): string {
  const file = path.join(dir, `values-${++valuesCount}.yaml`);
  writeFileSync(file, stringify(values));
  return file;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
}

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  verbs: string[];
}

export type RoleObject = KubeObject & { rules: PolicyRule[] };

/** `helm template` of the chart with these values; throws with helm's message when it refuses them. */
export async function renderChart(
  helm: string,
  dir: string,
  values: unknown,
  { release = "rollscope", namespace = "rollscope" } = {},
): Promise<KubeObject[]> {
  const result = await run(helm, ["template", release, CHART_DIR, "--namespace", namespace, "--values", valuesFile(dir, values)]);
  if (result.code !== 0) throw new Error(`helm template failed: ${result.stderr.trim()}`);
  return parseManifests(result.stdout);
}

function parseManifests(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as KubeObject | null)
    .filter((obj): obj is KubeObject => obj !== null);
}

export function toManifests(objects: readonly unknown[]): string {
  return objects.map((o) => stringify(o)).join("---\n");
}

export function isRole(obj: KubeObject): obj is RoleObject {
  return obj.kind === "ClusterRole" || obj.kind === "Role";
}

/** One verb on one resource, as a role grants it: the unit the least-privilege test takes away one at a time. */
export interface Permission {
  role: string;
  resource: string;
  verb: string;
  resourceNames?: string[];
  /** `verb resource` as `kubectl auth can-i` takes it. */
  id: string;
}

export function permissionsOf(role: RoleObject): Permission[] {
  return role.rules.flatMap((rule) =>
    (rule.resources ?? []).flatMap((resource) =>
      rule.verbs.map((verb) => ({
        role: `${role.kind}/${role.metadata.name}`,
        resource,
        verb,
        resourceNames: rule.resourceNames,
        id: `${verb} ${resource}`,
      })),
    ),
  );
}

/** The role with exactly this one permission taken away (a rule naming several resources or verbs is split). */
export function withoutPermission(role: RoleObject, permission: Permission): RoleObject {
  const rules = role.rules.flatMap((rule): PolicyRule[] => {
    const resources = rule.resources ?? [];
    if (!resources.includes(permission.resource) || !rule.verbs.includes(permission.verb)) return [rule];
    const others = resources.filter((r) => r !== permission.resource);
    const verbs = rule.verbs.filter((v) => v !== permission.verb);
    return [
      ...(others.length > 0 ? [{ ...rule, resources: others }] : []),
      ...(verbs.length > 0 ? [{ ...rule, resources: [permission.resource], verbs }] : []),
    ];
  });
  return { ...role, rules };
}

/** kubeconform on the manifests against the schema folder; resolves with its JSON summary or rejects with its output. */
export async function kubeconform(
  binary: string,
  manifests: string,
  schemaDir: string,
  skipKinds: readonly string[],
): Promise<{ valid: number; invalid: number; errors: number; skipped: number }> {
  const args = ["-strict", "-summary", "-output", "json", "-schema-location", `${schemaDir}/{{.ResourceKind}}{{.KindSuffix}}.json`];
  if (skipKinds.length > 0) args.push("-skip", skipKinds.join(","));
  const result = await run(binary, [...args, "-"], manifests);
  if (result.code !== 0) throw new Error(`kubeconform refused the manifests:\n${result.stdout}${result.stderr}`);
  return (JSON.parse(result.stdout) as { summary: { valid: number; invalid: number; errors: number; skipped: number } }).summary;
}
