import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

/** Minimal DER encoding, enough for one self-signed X.509 v3 certificate. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  if (body.length < 0x80) return Buffer.concat([Buffer.from([tag, body.length]), body]);
  const len: number[] = [];
  for (let n = body.length; n > 0; n >>= 8) len.unshift(n & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | len.length, ...len]), body]);
}

const seq = (...items: Buffer[]) => der(0x30, ...items);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes = [40 * a + b];
  for (const part of rest) {
    const chunk = [part & 0x7f];
    for (let v = part >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, "").slice(0, 14) + "Z";
  // RFC 5280: UTCTime through 2049, GeneralizedTime from 2050.
  return date.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(iso.slice(2))) : der(0x18, Buffer.from(iso));
}

function name(commonName: string): Buffer {
  return seq(der(0x31, seq(oid("2.5.4.3"), der(0x0c, Buffer.from(commonName)))));
}

let cached: { key: string; cert: string } | undefined;

/**
 * A throwaway self-signed certificate for 127.0.0.1 / ::1 / localhost, made once per process. kubectl (client-go)
 * only sends credentials over TLS, so the API server also speaks TLS on its port; clients skip verification.
 */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (cached) return cached;
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const serial = randomBytes(16);
  // A DER INTEGER is minimal and positive: a first byte of 0 (with the next below 0x80) is "illegal padding" to
  // OpenSSL, which refused one certificate in 256. 0x40–0x7f: never 0, never negative.
  serial[0] = (serial[0] & 0x3f) | 0x40;
  const ecdsaWithSha256 = seq(oid("1.2.840.10045.4.3.2"));
  const now = Date.now();
  const subjectAltName = seq(
    der(0x87, Buffer.from([127, 0, 0, 1])),
    der(0x87, Buffer.from([...new Array<number>(15).fill(0), 1])),
    der(0x82, Buffer.from("localhost")),
  );
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    ecdsaWithSha256,
    name("rollscope-sim"),
    seq(time(new Date(now - 86_400_000)), time(new Date(now + 10 * 365 * 86_400_000))),
    name("rollscope-sim"),
    publicKey.export({ type: "spki", format: "der" }),
    der(0xa3, seq(seq(oid("2.5.29.17"), der(0x04, subjectAltName)))),
  );
  const signature = sign("sha256", tbs, privateKey);
  const certificate = seq(tbs, ecdsaWithSha256, der(0x03, Buffer.from([0]), signature));
  const base64 = certificate.toString("base64").replace(/(.{64})/g, "$1\n");
  cached = {
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${base64.trimEnd()}\n-----END CERTIFICATE-----\n`,
  };
  return cached;
}
