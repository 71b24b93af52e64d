/** RFC 7386 JSON merge patch and RFC 6902 JSON patch, as the API server applies them. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

export class PatchError extends Error {}

export interface JsonPatchOperation {
  op: "add" | "remove" | "replace" | "move" | "copy" | "test";
  path: string;
  value?: unknown;
  from?: string;
}

function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new PatchError(`invalid JSON pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function getAt(doc: unknown, tokens: string[]): unknown {
  let current = doc;
  for (const token of tokens) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isPlainObject(current)) current = current[token];
    else return undefined;
  }
  return current;
}

function parentOf(doc: unknown, tokens: string[], path: string): { parent: unknown; key: string } {
  if (tokens.length === 0) throw new PatchError(`cannot operate on the document root at "${path}"`);
  const parent = getAt(doc, tokens.slice(0, -1));
  if (!Array.isArray(parent) && !isPlainObject(parent)) {
    throw new PatchError(`doc is missing path: "${path}": missing value`);
  }
  return { parent, key: tokens[tokens.length - 1] };
}

function addAt(doc: unknown, path: string, value: unknown): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return structuredClone(value);
  const { parent, key } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const index = key === "-" ? parent.length : Number(key);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) {
      throw new PatchError(`add operation index out of bounds at "${path}"`);
    }
    parent.splice(index, 0, structuredClone(value));
  } else {
    (parent as Record<string, unknown>)[key] = structuredClone(value);
  }
  return doc;
}

function removeAt(doc: unknown, path: string): unknown {
  const tokens = parsePointer(path);
  const { parent, key } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0 || index >= parent.length) {
      throw new PatchError(`remove operation does not apply: doc is missing path: "${path}"`);
    }
    parent.splice(index, 1);
  } else {
    const record = parent as Record<string, unknown>;
    if (!(key in record)) throw new PatchError(`remove operation does not apply: doc is missing path: "${path}"`);
    delete record[key];
  }
  return doc;
}

export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw new PatchError("json patch must be an array of operations");
  let doc = structuredClone(target);
  for (const raw of operations as JsonPatchOperation[]) {
    if (!isPlainObject(raw) || typeof raw.op !== "string" || typeof raw.path !== "string") {
      throw new PatchError("each json patch operation needs op and path");
    }
    switch (raw.op) {
      case "add":
        doc = addAt(doc, raw.path, raw.value);
        break;
      case "remove":
        doc = removeAt(doc, raw.path);
        break;
      case "replace":
        if (getAt(doc, parsePointer(raw.path)) === undefined) {
          throw new PatchError(`replace operation does not apply: doc is missing key: ${raw.path}`);
        }
        doc = removeAt(doc, raw.path);
        doc = addAt(doc, raw.path, raw.value);
        break;
      case "move": {
        const value = getAt(doc, parsePointer(raw.from ?? ""));
        if (value === undefined) throw new PatchError(`move operation does not apply: missing "${raw.from}"`);
        doc = removeAt(doc, raw.from ?? "");
        doc = addAt(doc, raw.path, value);
        break;
      }
      case "copy": {
        const value = getAt(doc, parsePointer(raw.from ?? ""));
        if (value === undefined) throw new PatchError(`copy operation does not apply: missing "${raw.from}"`);
        doc = addAt(doc, raw.path, value);
        break;
      }
      case "test":
        if (JSON.stringify(getAt(doc, parsePointer(raw.path))) !== JSON.stringify(raw.value)) {
          throw new PatchError(`testing value ${raw.path} failed`);
        }
        break;
      default:
        throw new PatchError(`unexpected kind of json patch operation: ${String((raw as { op: unknown }).op)}`);
    }
  }
  return doc;
}
