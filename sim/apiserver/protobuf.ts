import { ApiError } from "./status";

/**
 * kubectl's typed clients send built-in kinds as `application/vnd.kubernetes.protobuf` (`kubectl create configmap
 * | secret | namespace`, `kubectl auth can-i`). This decodes the Kubernetes protobuf envelope and the few kinds
 * those commands create into their JSON form; any other kind gets 415 (client-go then uses JSON for later
 * requests). Field numbers are those of k8s.io/api's generated.proto; zero values are omitted as JSON's omitempty does.
 */

type Scalar = "string" | "bytes" | "int" | "bool" | "time";
type Field =
  | { name: string; type: Scalar; repeated?: boolean }
  | { name: string; type: "map"; value: "string" | "bytes" }
  | { name: string; type: "message"; schema: Schema; repeated?: boolean };
type Schema = Record<number, Field>;

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0"

const OWNER_REFERENCE: Schema = {
  1: { name: "kind", type: "string" },
  3: { name: "name", type: "string" },
  4: { name: "uid", type: "string" },
  5: { name: "apiVersion", type: "string" },
  6: { name: "controller", type: "bool" },
  7: { name: "blockOwnerDeletion", type: "bool" },
};

const OBJECT_META: Schema = {
  1: { name: "name", type: "string" },
  2: { name: "generateName", type: "string" },
  3: { name: "namespace", type: "string" },
  5: { name: "uid", type: "string" },
  6: { name: "resourceVersion", type: "string" },
  7: { name: "generation", type: "int" },
  8: { name: "creationTimestamp", type: "time" },
  11: { name: "labels", type: "map", value: "string" },
  12: { name: "annotations", type: "map", value: "string" },
  13: { name: "ownerReferences", type: "message", schema: OWNER_REFERENCE, repeated: true },
  14: { name: "finalizers", type: "string", repeated: true },
};

const RESOURCE_ATTRIBUTES: Schema = {
  1: { name: "namespace", type: "string" },
  2: { name: "verb", type: "string" },
  3: { name: "group", type: "string" },
  4: { name: "version", type: "string" },
  5: { name: "resource", type: "string" },
  6: { name: "subresource", type: "string" },
  7: { name: "name", type: "string" },
};

const NON_RESOURCE_ATTRIBUTES: Schema = { 1: { name: "path", type: "string" }, 2: { name: "verb", type: "string" } };

const metadata: Field = { name: "metadata", type: "message", schema: OBJECT_META };
const resourceAttributes: Field = { name: "resourceAttributes", type: "message", schema: RESOURCE_ATTRIBUTES };
const nonResourceAttributes: Field = { name: "nonResourceAttributes", type: "message", schema: NON_RESOURCE_ATTRIBUTES };

const KINDS: Record<string, Schema> = {
  "v1/ConfigMap": {
    1: metadata,
    2: { name: "data", type: "map", value: "string" },
    3: { name: "binaryData", type: "map", value: "bytes" },
    4: { name: "immutable", type: "bool" },
  },
  "v1/Secret": {
    1: metadata,
    2: { name: "data", type: "map", value: "bytes" },
    3: { name: "type", type: "string" },
    4: { name: "stringData", type: "map", value: "string" },
    5: { name: "immutable", type: "bool" },
  },
  "v1/Namespace": {
    1: metadata,
    2: { name: "spec", type: "message", schema: { 1: { name: "finalizers", type: "string", repeated: true } } },
  },
  "authorization.k8s.io/v1/SelfSubjectAccessReview": {
    1: metadata,
    2: { name: "spec", type: "message", schema: { 1: resourceAttributes, 2: nonResourceAttributes } },
  },
  "authorization.k8s.io/v1/SubjectAccessReview": {
    1: metadata,
    2: {
      name: "spec",
      type: "message",
      schema: {
        1: resourceAttributes,
        2: nonResourceAttributes,
        3: { name: "user", type: "string" },
        4: { name: "groups", type: "string", repeated: true },
        6: { name: "uid", type: "string" },
      },
    },
  },
};

class Reader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): number {
    let result = 0;
    for (let shift = 1; ; shift *= 128) {
      if (this.pos >= this.buf.length) throw new Error("truncated varint");
      const byte = this.buf[this.pos++];
      result += (byte & 0x7f) * shift;
      if (byte < 0x80) return result;
    }
  }

  bytes(): Buffer {
    const len = this.varint();
    if (this.pos + len > this.buf.length) throw new Error("truncated field");
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wireType}`);
  }
}

function scalar(type: Scalar, reader: Reader, wireType: number): unknown {
  if (type === "int") return reader.varint();
  if (type === "bool") return reader.varint() !== 0;
  if (wireType !== 2) throw new Error("expected a length-delimited field");
  const raw = reader.bytes();
  if (type === "string") return raw.toString("utf8");
  if (type === "bytes") return raw.toString("base64");
  const time = decodeMessage(raw, { 1: { name: "seconds", type: "int" }, 2: { name: "nanos", type: "int" } });
  return typeof time.seconds === "number" ? new Date(time.seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z") : undefined;
}

function isZero(value: unknown): boolean {
  return value === undefined || value === "" || value === 0 || value === false;
}

function decodeMessage(buf: Buffer, schema: Schema): Record<string, unknown> {
  const reader = new Reader(buf);
  const out: Record<string, unknown> = {};
  while (!reader.done) {
    const key = reader.varint();
    const field = schema[Math.floor(key / 8)];
    const wireType = key & 7;
    if (!field) {
      reader.skip(wireType);
      continue;
    }
    if (field.type === "map") {
      const entry = decodeMessage(reader.bytes(), { 1: { name: "k", type: "string" }, 2: { name: "v", type: field.value } });
      const map = (out[field.name] ??= {}) as Record<string, unknown>;
      map[String(entry.k ?? "")] = entry.v ?? "";
      continue;
    }
    const value = field.type === "message" ? decodeMessage(reader.bytes(), field.schema) : scalar(field.type, reader, wireType);
    if (field.repeated) ((out[field.name] ??= []) as unknown[]).push(value);
    else if (!isZero(value)) out[field.name] = value;
  }
  return out;
}

export function isProtobuf(contentType: string): boolean {
  return contentType === "application/vnd.kubernetes.protobuf";
}

/** The JSON form of a protobuf-encoded object of one of the supported kinds; 415 for others, 400 if malformed. */
export function decodeProtobufObject(body: Buffer): Record<string, unknown> {
  const unsupported = (what: string) =>
    new ApiError(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - ${what} is only accepted as application/json or application/yaml`,
    );
  if (!body.subarray(0, 4).equals(MAGIC)) throw unsupported("a protobuf body without the k8s envelope");
  try {
    const envelope = decodeMessage(body.subarray(4), {
      1: { name: "typeMeta", type: "message", schema: { 1: { name: "apiVersion", type: "string" }, 2: { name: "kind", type: "string" } } },
      2: { name: "raw", type: "bytes" },
    });
    const typeMeta = (envelope.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
    const schema = KINDS[`${typeMeta.apiVersion}/${typeMeta.kind}`];
    if (!schema) throw unsupported(`${typeMeta.kind ?? "this kind"}`);
    const raw = Buffer.from(String(envelope.raw ?? ""), "base64");
    return { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, ...decodeMessage(raw, schema) };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(
      400,
      "BadRequest",
      `the protobuf body of the request could not be decoded: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
