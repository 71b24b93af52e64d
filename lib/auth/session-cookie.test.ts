import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openCookie, sealCookie, SessionClaims } from "./session-cookie";

const key = new Uint8Array(randomBytes(32));
const claims = { sid: "5b0e7c1e-session-of-alice" };

describe("sealed session cookie", () => {
  it("round-trips the session id and hides it from the browser", async () => {
    const sealed = await sealCookie(claims, "rollscope-session", key, 3600);
    expect(sealed.split(".")).toHaveLength(5); // compact JWE
    expect(Buffer.from(sealed.split(".")[3], "base64url").toString()).not.toContain("alice");
    expect(await openCookie(sealed, "rollscope-session", key, SessionClaims)).toStrictEqual(claims);
  });

  it("refuses another key, another audience, a tampered value and an expired cookie", async () => {
    const sealed = await sealCookie(claims, "rollscope-session", key, 3600);
    expect(await openCookie(sealed, "rollscope-session", new Uint8Array(randomBytes(32)), SessionClaims)).toBeUndefined();
    expect(await openCookie(sealed, "rollscope-signin", key, SessionClaims)).toBeUndefined();
    const parts = sealed.split(".");
    parts[3] = parts[3].slice(0, -2) + (parts[3].endsWith("AA") ? "BB" : "AA");
    expect(await openCookie(parts.join("."), "rollscope-session", key, SessionClaims)).toBeUndefined();
    const expired = await sealCookie(claims, "rollscope-session", key, -10);
    expect(await openCookie(expired, "rollscope-session", key, SessionClaims)).toBeUndefined();
    expect(await openCookie(undefined, "rollscope-session", key, SessionClaims)).toBeUndefined();
  });
});
