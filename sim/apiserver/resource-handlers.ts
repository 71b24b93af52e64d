import type { IncomingMessage, ServerResponse } from "node:http";
import { groupVersion, type ResourceType } from "../resources";
import type { KubeObject, ObjectStore, PatchType } from "../store/object-store";
import { reviewAccess } from "./access-review";
import type { FaultState } from "./faults";
import {
  asKubeObject,
  decodeBody,
  isObject,
  objectJson,
  parseAccept,
  parseMediaType,
  queryBool,
  queryInt,
  readBody,
  tableVersion,
} from "./http-io";
import type { Authorizer, UserInfo } from "./rbac";
import type { ResourceRequestInfo } from "./request-info";
import { decodeProtobufObject, isProtobuf } from "./protobuf";
import { patchScale, toScale, writeScale } from "./scale";
import { proxyToService, type ServiceProxyResolver } from "./service-proxy";
import { ApiError, badRequest, methodNotAllowed, notFoundPath, sendJson } from "./status";
import { parseIncludeObject, type TableOptions, toTable } from "./table";
import { serveWatch } from "./watch";

/** Groups whose types are compiled into the API server; every other group is served as a custom resource. */
const BUILT_IN_GROUPS = new Set(["", "apps", "coordination.k8s.io", "authorization.k8s.io"]);

export interface ServerEnv {
  store: ObjectStore;
  faults: FaultState;
  authorizer: Authorizer;
  bookmarkIntervalMs: number;
  resolveServiceProxy: ServiceProxyResolver;
}

export interface ResourceContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  info: ResourceRequestInfo;
  type: ResourceType;
  user: UserInfo;
  env: ServerEnv;
}

function query(ctx: ResourceContext, name: string): string | undefined {
  return ctx.url.searchParams.get(name) ?? undefined;
}

function isDryRun(ctx: ResourceContext): boolean {
  const values = ctx.url.searchParams.getAll("dryRun");
  for (const v of values) if (v !== "All") throw new ApiError(422, "Invalid", `dryRun: Unsupported value: "${v}": supported values: "All"`);
  return values.length > 0;
}

function tableOptions(ctx: ResourceContext): TableOptions | null {
  const version = tableVersion(parseAccept(ctx.req.headers.accept));
  return version ? { version, includeObject: parseIncludeObject(ctx.url.searchParams.get("includeObject")) } : null;
}

function contentTypeOf(ctx: ResourceContext): string {
  return parseMediaType(ctx.req.headers["content-type"] ?? "application/json").type;
}

/** A JSON, YAML or (for the kinds kubectl's typed clients create) protobuf body. */
async function readJson(ctx: ResourceContext): Promise<unknown> {
  const contentType = contentTypeOf(ctx);
  if (isProtobuf(contentType)) return decodeProtobufObject(await readBody(ctx.req));
  if (contentType !== "application/json" && contentType !== "application/yaml") {
    throw new ApiError(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
    );
  }
  return decodeBody(await readBody(ctx.req), contentType);
}

async function readObject(ctx: ResourceContext): Promise<KubeObject> {
  const obj = asKubeObject(await readJson(ctx));
  checkTypeMeta(ctx.type, obj, ctx.info.subresource === "scale");
  return obj;
}

/** The body's apiVersion/kind, when given, must be the URL's (or autoscaling/v1 Scale on /scale). */
function checkTypeMeta(type: ResourceType, obj: KubeObject, scale: boolean): void {
  const expectedVersion = scale ? "autoscaling/v1" : groupVersion(type);
  const expectedKind = scale ? "Scale" : type.kind;
  if (obj.apiVersion && obj.apiVersion !== expectedVersion) {
    throw badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${expectedVersion})`);
  }
  if (obj.kind && obj.kind !== expectedKind)
    throw badRequest(`the kind in the data (${obj.kind}) does not match the expected kind (${expectedKind})`);
}

function sendObject(ctx: ResourceContext, code: number, obj: KubeObject): void {
  sendJson(ctx.res, code, objectJson(obj));
}

function namespaceOf(ctx: ResourceContext): string | undefined {
  return ctx.type.namespaced && ctx.info.namespace ? ctx.info.namespace : undefined;
}

function getObject(ctx: ResourceContext): void {
  const { store } = ctx.env;
  const obj = store.get(ctx.type, namespaceOf(ctx), ctx.info.name);
  if (ctx.info.subresource === "scale") return sendJson(ctx.res, 200, toScale(ctx.type, obj));
  const table = tableOptions(ctx);
  if (table) return sendJson(ctx.res, 200, toTable(ctx.type, [obj], { resourceVersion: obj.metadata.resourceVersion }, table));
  sendObject(ctx, 200, obj);
}

function listObjects(ctx: ResourceContext): void {
  const result = ctx.env.store.list(ctx.type, {
    namespace: namespaceOf(ctx),
    labelSelector: query(ctx, "labelSelector"),
    fieldSelector: query(ctx, "fieldSelector"),
    limit: queryInt(ctx.url.searchParams, "limit"),
    continue: query(ctx, "continue"),
  });
  const meta: Record<string, unknown> = { resourceVersion: result.resourceVersion };
  if (result.continue) {
    meta.continue = result.continue;
    meta.remainingItemCount = result.remainingItemCount;
  }
  const table = tableOptions(ctx);
  if (table) return sendJson(ctx.res, 200, toTable(ctx.type, result.items, meta, table));
  // Items are shared, cached JSON text; only the envelope is built per request.
  const text = `{"kind":"${ctx.type.listKind}","apiVersion":"${groupVersion(ctx.type)}","metadata":${JSON.stringify(meta)},"items":[${result.items.map(objectJson).join(",")}]}`;
  sendJson(ctx.res, 200, text);
}

function watchObjects(ctx: ResourceContext): void {
  let fieldSelector = query(ctx, "fieldSelector");
  // A watch on a named path (the deprecated /watch/ prefix) watches that one object.
  if (ctx.info.name) fieldSelector = [fieldSelector, `metadata.name=${ctx.info.name}`].filter(Boolean).join(",");
  const sendInitial = ctx.url.searchParams.get("sendInitialEvents");
  const allowBookmarks = queryBool(ctx.url.searchParams.get("allowWatchBookmarks"));
  if (sendInitial !== null && queryBool(sendInitial) && (!allowBookmarks || query(ctx, "resourceVersionMatch") !== "NotOlderThan")) {
    throw new ApiError(
      422,
      "Invalid",
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan and allowWatchBookmarks to true',
    );
  }
  serveWatch(ctx.res, ctx.env, {
    type: ctx.type,
    namespace: namespaceOf(ctx),
    labelSelector: query(ctx, "labelSelector"),
    fieldSelector,
    resourceVersion: query(ctx, "resourceVersion"),
    timeoutSeconds: queryInt(ctx.url.searchParams, "timeoutSeconds"),
    allowBookmarks,
    sendInitialEvents: sendInitial === null ? undefined : queryBool(sendInitial),
    table: tableOptions(ctx),
  });
}

async function createObject(ctx: ResourceContext): Promise<void> {
  if (ctx.type.createOnly) {
    const body = await readJson(ctx);
    const kind = ctx.type.kind as "SelfSubjectAccessReview" | "SubjectAccessReview";
    return sendJson(ctx.res, 201, reviewAccess(kind, body, ctx.user, ctx.env.authorizer));
  }
  if (ctx.type.namespaced && !ctx.info.namespace) throw methodNotAllowed();
  const obj = withCreateDefaults(ctx.type, await readObject(ctx));
  sendObject(ctx, 201, ctx.env.store.create(ctx.type, namespaceOf(ctx), obj, { dryRun: isDryRun(ctx), manager: managerOf(ctx) }));
}

/** What the built-in create strategies fill in: an Active namespace with the kubernetes finalizer, Opaque secrets. */
function withCreateDefaults(type: ResourceType, obj: KubeObject): KubeObject {
  if (type.group !== "") return obj;
  if (type.plural === "namespaces") {
    return { ...obj, spec: { finalizers: ["kubernetes"], ...(isObject(obj.spec) ? obj.spec : {}) }, status: { phase: "Active" } };
  }
  if (type.plural === "secrets" && !obj.type) return { ...obj, type: "Opaque" };
  return obj;
}

/**
 * The write's target and field manager: `?fieldManager=`, else the client's user agent up to its first "/" (the API
 * server's prefixFromUserAgent), so `kubectl-argo-rollouts/v1.9.1 (linux/amd64) …` writes as kubectl-argo-rollouts.
 */
function subresourceOption(ctx: ResourceContext): { subresource?: "status"; manager?: string } {
  const manager = managerOf(ctx);
  return { ...(ctx.info.subresource === "status" ? { subresource: "status" as const } : {}), ...(manager ? { manager } : {}) };
}

function managerOf(ctx: ResourceContext): string | undefined {
  const explicit = ctx.url.searchParams.get("fieldManager");
  if (explicit) return explicit.slice(0, 128);
  const agent = ctx.req.headers["user-agent"];
  return typeof agent === "string" && agent ? agent.split("/")[0].slice(0, 128) : undefined;
}

async function updateObject(ctx: ResourceContext): Promise<void> {
  const obj = await readObject(ctx);
  const dryRun = isDryRun(ctx);
  const { store } = ctx.env;
  if (ctx.info.subresource === "scale") {
    return sendJson(ctx.res, 200, writeScale(store, ctx.type, namespaceOf(ctx), ctx.info.name, obj, dryRun));
  }
  sendObject(ctx, 200, store.replace(ctx.type, namespaceOf(ctx), ctx.info.name, obj, { ...subresourceOption(ctx), dryRun }));
}

function unsupportedPatch(type: ResourceType): ApiError {
  const accepted = ["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"];
  if (BUILT_IN_GROUPS.has(type.group)) accepted.splice(2, 0, "application/strategic-merge-patch+json");
  return new ApiError(
    415,
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
  );
}

async function patchObject(ctx: ResourceContext): Promise<void> {
  const contentType = contentTypeOf(ctx);
  let patchType: PatchType | "apply";
  switch (contentType) {
    case "application/merge-patch+json":
      patchType = "merge";
      break;
    case "application/json-patch+json":
      patchType = "json";
      break;
    case "application/strategic-merge-patch+json":
      // Custom resources have no strategic-merge metadata, so the real server refuses SMP for them. For built-in
      // types SMP is applied as a JSON merge patch: list merging by key ($patch, $setElementOrder) is not reproduced.
      if (!BUILT_IN_GROUPS.has(ctx.type.group)) throw unsupportedPatch(ctx.type);
      patchType = "merge";
      break;
    case "application/apply-patch+yaml":
      patchType = "apply";
      break;
    default:
      throw unsupportedPatch(ctx.type);
  }
  const body = decodeBody(await readBody(ctx.req), contentType);
  const dryRun = isDryRun(ctx);
  const { store } = ctx.env;
  const ns = namespaceOf(ctx);
  const { name } = ctx.info;
  if (ctx.info.subresource === "scale") {
    const current = toScale(ctx.type, store.get(ctx.type, ns, name));
    const next = patchScale(current, patchType === "json" ? "json" : "merge", body);
    return sendJson(ctx.res, 200, writeScale(store, ctx.type, ns, name, next, dryRun));
  }
  if (patchType === "apply") return serverSideApply(ctx, body, dryRun);
  sendObject(ctx, 200, store.patch(ctx.type, ns, name, patchType, body, { ...subresourceOption(ctx), dryRun }));
}

/**
 * Server-side apply without managed fields: creates the object when it is missing, otherwise merges the applied
 * configuration in as a JSON merge patch. Field ownership and conflict detection are not reproduced.
 */
function serverSideApply(ctx: ResourceContext, body: unknown, dryRun: boolean): void {
  if (!ctx.url.searchParams.get("fieldManager")) {
    throw new ApiError(422, "Invalid", 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  }
  const obj = asKubeObject(body);
  if (!obj.apiVersion || !obj.kind) throw badRequest("apiVersion and kind must be set in an apply patch");
  checkTypeMeta(ctx.type, obj, false);
  const { store } = ctx.env;
  const ns = namespaceOf(ctx);
  const { name } = ctx.info;
  if (obj.metadata.name && obj.metadata.name !== name) {
    throw badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
  }
  if (!store.tryGet(ctx.type, ns, name) && !ctx.info.subresource) {
    return sendObject(
      ctx,
      201,
      store.create(ctx.type, ns, { ...obj, metadata: { ...obj.metadata, name } }, { dryRun, manager: managerOf(ctx) }),
    );
  }
  sendObject(ctx, 200, store.patch(ctx.type, ns, name, "merge", obj, { ...subresourceOption(ctx), dryRun }));
}

/** DeleteOptions preconditions (uid, resourceVersion) from an optional body. */
async function checkPreconditions(ctx: ResourceContext, current: KubeObject): Promise<void> {
  const raw = await readBody(ctx.req);
  if (raw.length === 0) return;
  const options = decodeBody(raw, "application/json");
  const pre = isObject(options) && isObject(options.preconditions) ? options.preconditions : {};
  const conflict = (field: string, expected: unknown, actual: unknown) =>
    new ApiError(
      409,
      "Conflict",
      `Precondition failed: ${field} in precondition: ${String(expected)}, ${field} in object meta: ${String(actual)}`,
      {
        name: current.metadata.name,
        group: ctx.type.group,
        kind: ctx.type.plural,
      },
    );
  if (typeof pre.uid === "string" && pre.uid !== current.metadata.uid) throw conflict("UID", pre.uid, current.metadata.uid);
  if (typeof pre.resourceVersion === "string" && pre.resourceVersion !== current.metadata.resourceVersion) {
    throw conflict("ResourceVersion", pre.resourceVersion, current.metadata.resourceVersion);
  }
}

async function deleteObject(ctx: ResourceContext): Promise<void> {
  const { store } = ctx.env;
  const ns = namespaceOf(ctx);
  const current = store.get(ctx.type, ns, ctx.info.name);
  await checkPreconditions(ctx, current);
  sendObject(ctx, 200, isDryRun(ctx) ? current : store.delete(ctx.type, ns, ctx.info.name));
}

function deleteCollection(ctx: ResourceContext): void {
  const { store } = ctx.env;
  const dryRun = isDryRun(ctx);
  const { items } = store.list(ctx.type, {
    namespace: namespaceOf(ctx),
    labelSelector: query(ctx, "labelSelector"),
    fieldSelector: query(ctx, "fieldSelector"),
  });
  const deleted = dryRun ? items : items.map((o) => store.delete(ctx.type, o.metadata.namespace, o.metadata.name));
  const text = `{"kind":"${ctx.type.listKind}","apiVersion":"${groupVersion(ctx.type)}","metadata":{"resourceVersion":"${store.resourceVersion}"},"items":[${deleted.map(objectJson).join(",")}]}`;
  sendJson(ctx.res, 200, text);
}

function allowedSubresources(type: ResourceType): string[] {
  return type.group === "" && type.plural === "services" ? [...type.subresources, "proxy"] : type.subresources;
}

/** Serves an authorized resource request: get, list, watch, create, update, patch, delete, deletecollection, proxy. */
export async function handleResource(ctx: ResourceContext): Promise<void> {
  const { info, type } = ctx;
  // A cluster-scoped type under /namespaces/{ns}/ does not exist (a Namespace's own path is the exception).
  if (!type.namespaced && info.namespace && type.plural !== "namespaces") throw notFoundPath();
  if (type.namespaced && !info.namespace && info.name) throw notFoundPath();
  if (info.subresource && !allowedSubresources(type).includes(info.subresource)) throw notFoundPath();
  if (info.subresource === "proxy") {
    return proxyToService(
      ctx.req,
      ctx.res,
      { namespace: info.namespace, nameSegment: info.name, rawSubpath: info.rawSubpath, search: ctx.url.search },
      ctx.env.resolveServiceProxy,
      ctx.env.store,
    );
  }
  if (type.createOnly && info.verb !== "create") throw methodNotAllowed();
  if (info.subresource && !["get", "update", "patch"].includes(info.verb)) throw methodNotAllowed();
  switch (info.verb) {
    case "get":
      return getObject(ctx);
    case "list":
      return listObjects(ctx);
    case "watch":
      return watchObjects(ctx);
    case "create":
      if (info.name) throw methodNotAllowed();
      return createObject(ctx);
    case "update":
      if (!info.name) throw methodNotAllowed();
      return updateObject(ctx);
    case "patch":
      if (!info.name) throw methodNotAllowed();
      return patchObject(ctx);
    case "delete":
      return deleteObject(ctx);
    case "deletecollection":
      return deleteCollection(ctx);
    default:
      throw methodNotAllowed();
  }
}
