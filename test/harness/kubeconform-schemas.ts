import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * kubeconform's JSON schemas, written from a live API server's OpenAPI v2 document (`GET /openapi/v2`) — there is
 * no network to fetch the published ones. One file per kind and version, named as kubeconform's
 * `-schema-location '<dir>/{{.ResourceKind}}{{.KindSuffix}}.json'` looks them up (`deployment-apps-v1.json`,
 * `service-v1.json`, `httproute-gateway-v1.json`), each holding only the definitions it references. Strict, as
 * kubeconform's `-strict` schemas are: an object with declared properties takes no others, so a misspelt field fails.
 * Custom resources the server serves (Argo Rollouts, Gateway API) come with their CRDs' schemas.
 */

type Schema = Record<string, unknown>;
interface OpenApiV2 {
  definitions: Record<string, Schema>;
}
interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

const REF_PREFIX = "#/definitions/";

/** Kubernetes' own types that JSON Schema needs spelt out (upstream's generator does the same). */
const SPECIAL: Record<string, Schema> = {
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": { oneOf: [{ type: "string" }, { type: "integer" }] },
  "io.k8s.apimachinery.pkg.api.resource.Quantity": { oneOf: [{ type: "string" }, { type: "number" }] },
};

/** `-apps-v1`, `-v1`, `-gateway-v1`: kubeconform's KindSuffix for an apiVersion. */
function kindSuffix({ group, version }: GroupVersionKind): string {
  return group === "" ? `-${version}` : `-${group.split(".")[0]}-${version}`.toLowerCase();
}

function refsOf(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) refsOf(item, into);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith(REF_PREFIX)) into.add(value.slice(REF_PREFIX.length));
      else refsOf(value, into);
    }
  }
}

/** A copy that forbids undeclared properties wherever properties are declared (kubeconform's strict mode). */
function strict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strict);
  if (!node || typeof node !== "object") return node;
  const copy = Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === "properties" ? mapValues(v as Schema, strict) : strict(v)]),
  ) as Schema;
  if (copy.properties && copy.additionalProperties === undefined && !copy["x-kubernetes-preserve-unknown-fields"])
    copy.additionalProperties = false;
  return copy;
}

function mapValues(obj: Schema, fn: (v: unknown) => unknown): Schema {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v)]));
}

/** The definition and every definition it references, directly or not. */
function closure(definitions: Record<string, Schema>, root: string): Record<string, Schema> {
  const seen = new Set<string>([root]);
  const queue = [root];
  while (queue.length > 0) {
    const name = queue.pop()!;
    const refs = new Set<string>();
    refsOf(SPECIAL[name] ?? definitions[name], refs);
    for (const ref of refs) {
      if (seen.has(ref)) continue;
      seen.add(ref);
      queue.push(ref);
    }
  }
  return Object.fromEntries([...seen].map((name) => [name, SPECIAL[name] ?? definitions[name] ?? {}]));
}

/** Writes one schema file per kind/version of the document into `dir`; returns how many. */
export function writeKubeconformSchemas(openapi: OpenApiV2, dir: string): number {
  mkdirSync(dir, { recursive: true });
  let written = 0;
  for (const [name, definition] of Object.entries(openapi.definitions)) {
    const gvks = (definition["x-kubernetes-group-version-kind"] as GroupVersionKind[] | undefined) ?? [];
    // Only top-level kinds (objects with apiVersion/kind); list and option types carry a GVK too but are never applied.
    if (gvks.length !== 1 || !(definition.properties as Schema | undefined)?.metadata) continue;
    const gvk = gvks[0];
    const definitions = mapValues(closure(openapi.definitions, name), strict);
    const schema = { ...(strict(definition) as Schema), definitions };
    writeFileSync(path.join(dir, `${gvk.kind.toLowerCase()}${kindSuffix(gvk)}.json`), JSON.stringify(schema));
    written++;
  }
  return written;
}
