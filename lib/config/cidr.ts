/** An address range: IPv4 addresses are kept in their IPv4-mapped IPv6 form so one comparison covers both. */
export interface Cidr {
  readonly base: bigint;
  /** Prefix length over 128 bits. */
  readonly bits: number;
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255 || (part.length > 1 && part.startsWith("0"))) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIPv6(text: string): bigint | undefined {
  let head = text;
  let tailV4: bigint | undefined;
  const lastColon = head.lastIndexOf(":");
  if (head.includes(".")) {
    tailV4 = parseIPv4(head.slice(lastColon + 1));
    if (tailV4 === undefined) return undefined;
    head = `${head.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split("::");
  if (halves.length > 2) return undefined;
  const toGroups = (s: string) => (s === "" ? [] : s.split(":"));
  const left = toGroups(halves[0]);
  const right = halves.length === 2 ? toGroups(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return undefined;
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...right];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  if (tailV4 !== undefined) value = (value & ~0xffffffffn) | tailV4;
  return value;
}

const V4_MAPPED = 0xffffn << 32n;

/** An IPv4 or IPv6 address as a 128-bit number (IPv4 → `::ffff:a.b.c.d`); undefined when it is not an address. */
export function parseIpAddress(text: string): bigint | undefined {
  const address = text
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  const v4 = parseIPv4(address);
  if (v4 !== undefined) return V4_MAPPED | v4;
  return address.includes(":") ? parseIPv6(address) : undefined;
}

/** `10.0.0.0/8`, `fd00::/8`, or a single address (a /32 or /128). */
export function parseCidr(text: string): Cidr | undefined {
  const [address, prefix, ...rest] = text.trim().split("/");
  if (rest.length > 0) return undefined;
  const base = parseIpAddress(address);
  if (base === undefined) return undefined;
  const isV4 = parseIPv4(address.trim()) !== undefined;
  const max = isV4 ? 32 : 128;
  if (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) return undefined;
  const length = prefix === undefined ? max : Number(prefix);
  if (length > max) return undefined;
  const bits = isV4 ? 96 + length : length;
  return { base: base & prefixMask(bits), bits };
}

function prefixMask(bits: number): bigint {
  const all = (1n << 128n) - 1n;
  return bits === 0 ? 0n : (all << BigInt(128 - bits)) & all;
}

export function cidrContains(cidr: Cidr, address: bigint): boolean {
  return (address & prefixMask(cidr.bits)) === cidr.base;
}
