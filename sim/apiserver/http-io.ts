import type { IncomingMessage } from "node:http";
import { parse as parseYaml } from "yaml";
import type { KubeObject } from "../store/object-store";
import { ApiError, badRequest } from "./status";

/** The API server's request body limit (3 MiB, as `--max-request-bytes` defaults for JSON). */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface MediaType {
  type: string;
  params: Record<string, string>;
}

export function parseMediaType(value: string): MediaType {
  const [type, ...rest] = value.split(";");
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf("=");
    if (eq > 0)
      params[part.slice(0, eq).trim().toLowerCase()] = part
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, "");
  }
  return { type: type.trim().toLowerCase(), params };
}

export function parseAccept(header: string | undefined): MediaType[] {
  if (!header) return [];
  return header
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean)
    .map(parseMediaType);
}

/** `v1` or `v1beta1` when the client asked for a meta.k8s.io Table (what `kubectl get` does), else null. */
export function tableVersion(accept: MediaType[]): "v1" | "v1beta1" | null {
  for (const m of accept) {
    if (m.params.as === "Table" && m.params.g === "meta.k8s.io" && (m.params.v === "v1" || m.params.v === "v1beta1")) {
      return m.params.v;
    }
    if ((m.type === "application/json" || m.type === "*/*") && !m.params.as) return null;
  }
  return null;
}

/** Aggregated discovery wins only when the client lists it before plain JSON, as content negotiation does. */
export function aggregatedDiscoveryVersion(accept: MediaType[]): "v2" | "v2beta1" | null {
  for (const m of accept) {
    if (
      m.params.as === "APIGroupDiscoveryList" &&
      m.params.g === "apidiscovery.k8s.io" &&
      (m.params.v === "v2" || m.params.v === "v2beta1")
    ) {
      return m.params.v;
    }
    if ((m.type === "application/json" || m.type === "*/*") && !m.params.as) return null;
  }
  return null;
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, "RequestEntityTooLarge", `Request entity too large: limit is ${MAX_BODY_BYTES}`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** Decodes a JSON or YAML body (`application/json`, `application/yaml`, `application/apply-patch+yaml`, patch types). */
export function decodeBody(body: Buffer, contentType: string): unknown {
  const text = body.toString("utf8");
  if (text.trim() === "") throw badRequest("the body of the request is empty");
  try {
    return contentType.endsWith("yaml") ? (parseYaml(text) as unknown) : (JSON.parse(text) as unknown);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw badRequest(`the body of the request could not be decoded: ${message}`);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A body that must be a Kubernetes object; metadata defaults to {}. */
export function asKubeObject(value: unknown): KubeObject {
  if (!isObject(value)) throw badRequest("the body of the request must be a JSON object");
  const metadata = value.metadata ?? {};
  if (!isObject(metadata)) throw badRequest("metadata must be an object");
  return { ...value, metadata } as KubeObject;
}

/** Texts kept: a watch event goes to every watcher of its type at once, so the last few objects sent suffice. */
const RECENT_TEXTS = 512;
const recentTexts = new Map<object, string>();

/**
 * JSON text of a stored object. Stored objects are deep-frozen and replaced on every write, so the text of an
 * object just sent is shared by every watcher that sends it too. Only recent objects keep theirs: a text per object
 * for as long as the object lived kept one for every version the watch history holds.
 */
export function objectJson(obj: object): string {
  if (!Object.isFrozen(obj)) return JSON.stringify(obj);
  let text = recentTexts.get(obj);
  if (text === undefined) {
    text = JSON.stringify(obj);
    recentTexts.set(obj, text);
    if (recentTexts.size > RECENT_TEXTS) recentTexts.delete(recentTexts.keys().next().value as object);
  }
  return text;
}

/** Go's strconv.ParseBool, which the API server uses for boolean query parameters. */
export function queryBool(value: string | null): boolean {
  return value !== null && ["1", "t", "T", "true", "TRUE", "True"].includes(value);
}

export function queryInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw badRequest(`invalid value for ${name}: ${raw}`);
  return n;
}
