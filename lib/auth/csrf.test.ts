import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSameOriginRequest, isValidCsrfToken, issueCsrfToken } from "./csrf";

const key = randomBytes(32);

describe("CSRF double-submit token", () => {
  it("accepts the cookie token repeated in the header, for the binding it was issued for", () => {
    const token = issueCsrfToken(key, "session:1");
    expect(isValidCsrfToken(key, "session:1", token, token)).toBe(true);
  });

  it("refuses a missing or different header, another binding, another key, or a forged token", () => {
    const token = issueCsrfToken(key, "session:1");
    expect(isValidCsrfToken(key, "session:1", token, null)).toBe(false);
    expect(isValidCsrfToken(key, "session:1", undefined, token)).toBe(false);
    expect(isValidCsrfToken(key, "session:1", token, issueCsrfToken(key, "session:1"))).toBe(false);
    expect(isValidCsrfToken(key, "session:2", token, token)).toBe(false);
    expect(isValidCsrfToken(randomBytes(32), "session:1", token, token)).toBe(false);
    const forged = `${token.split(".")[0]}.AAAA`;
    expect(isValidCsrfToken(key, "session:1", forged, forged)).toBe(false);
    expect(isValidCsrfToken(key, "session:1", "nodot", "nodot")).toBe(false);
  });
});

describe("isSameOriginRequest", () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  it("accepts the Origin the browser addressed or the configured public URL", () => {
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }), undefined)).toBe(true);
    expect(
      isSameOriginRequest(headers({ host: "rollscope:3000", origin: "https://rollscope.example.com" }), "https://rollscope.example.com"),
    ).toBe(true);
  });
  it("refuses another origin, the opaque origin and cross-site fetch metadata", () => {
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3000", origin: "http://evil.example" }), undefined)).toBe(false);
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3000", origin: "null" }), undefined)).toBe(false);
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3000", "sec-fetch-site": "cross-site" }), undefined)).toBe(false);
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3000", "sec-fetch-site": "same-site" }), undefined)).toBe(false);
  });
  it("lets non-browser clients through to the token check", () => {
    expect(isSameOriginRequest(headers({ host: "127.0.0.1:3000" }), undefined)).toBe(true);
  });
});
