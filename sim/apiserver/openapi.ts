import { createHash } from "node:crypto";
import { groupVersion, RESOURCE_TYPES, type ResourceType } from "../resources";

/**
 * A skeleton OpenAPI v3 document: no schemas, only each resource's PATCH operation tagged with its
 * x-kubernetes-group-version-kind and the fieldValidation query parameter. That is what kubectl's
 * QueryParamVerifierV3 looks for before it leaves validation to the server (`--validate=strict`, the default);
 * without it `kubectl create/apply` refuses to run. The server accepts fieldValidation and does not validate
 * fields against a schema.
 */
function groupVersionDocument(group: string, version: string): object {
  const paths: Record<string, object> = {};
  const types = RESOURCE_TYPES.filter((t) => t.group === group && t.version === version && !t.createOnly);
  for (const t of types) paths[itemPath(t)] = { patch: patchOperation(t) };
  return { openapi: "3.0.0", info: { title: "Kubernetes", version: "v1.32.0" }, paths, components: { schemas: {} } };
}

function itemPath(t: ResourceType): string {
  const prefix = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  return t.namespaced ? `${prefix}/namespaces/{namespace}/${t.plural}/{name}` : `${prefix}/${t.plural}/{name}`;
}

function patchOperation(t: ResourceType): object {
  const query = (name: string, type: string) => ({ name, in: "query", schema: { type, uniqueItems: true } });
  return {
    operationId: `patch${t.kind}`,
    parameters: [query("dryRun", "string"), query("fieldManager", "string"), query("fieldValidation", "string"), query("force", "boolean")],
    responses: { "200": { description: "OK" } },
    "x-kubernetes-action": "patch",
    "x-kubernetes-group-version-kind": { group: t.group, version: t.version, kind: t.kind },
  };
}

function documentPath(gv: { group: string; version: string }): string {
  return gv.group ? `apis/${gv.group}/${gv.version}` : `api/${gv.version}`;
}

/** GET /openapi/v3 (the root listing every group-version) and /openapi/v3/{api/v1 | apis/g/v}; null for anything else. */
export function openApiV3(path: string): object | null {
  const gvs = new Map<string, { group: string; version: string }>();
  for (const t of RESOURCE_TYPES) gvs.set(groupVersion(t), { group: t.group, version: t.version });
  const rest = path.replace(/^\/openapi\/v3\/?/, "");
  if (rest === "") {
    const paths: Record<string, object> = {};
    for (const gv of gvs.values()) {
      const hash = createHash("sha512")
        .update(JSON.stringify(groupVersionDocument(gv.group, gv.version)))
        .digest("hex")
        .slice(0, 32);
      paths[documentPath(gv)] = { serverRelativeURL: `/openapi/v3/${documentPath(gv)}?hash=${hash.toUpperCase()}` };
    }
    return { paths };
  }
  for (const gv of gvs.values()) if (documentPath(gv) === rest) return groupVersionDocument(gv.group, gv.version);
  return null;
}
