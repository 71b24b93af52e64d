import { describe, expect, it } from "vitest";
import { cookieName, parseCookies, readCookie, serializeCookie } from "./cookies";

describe("cookies", () => {
  it("parses a Cookie header; the first of two same-named cookies wins", () => {
    const cookies = parseCookies('a=1; b="two"; c=x%20y; a=3; broken');
    expect([...cookies]).toStrictEqual([
      ["a", "1"],
      ["b", "two"],
      ["c", "x y"],
    ]);
  });

  it("writes HttpOnly cookies, Secure with the __Host- prefix over https", () => {
    expect(serializeCookie(cookieName("rollscope_session", true), "v", { secure: true, sameSite: "Lax", maxAge: 60 })).toBe(
      "__Host-rollscope_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure",
    );
    expect(serializeCookie(cookieName("rollscope_csrf", false), "", { secure: false, sameSite: "Strict", maxAge: 0 })).toBe(
      "rollscope_csrf=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    );
  });

  it("reads a cookie only under the name it is set with", () => {
    expect(readCookie(parseCookies("__Host-s=1"), "s", true)).toBe("1");
    expect(readCookie(parseCookies("s=2"), "s", false)).toBe("2");
  });

  it("refuses the plain name where the __Host- one is used (a cookie a sibling site could plant), and vice versa", () => {
    expect(readCookie(parseCookies("s=planted"), "s", true)).toBeUndefined();
    expect(readCookie(parseCookies("s=planted; __Host-s=1"), "s", true)).toBe("1");
    expect(readCookie(parseCookies("__Host-s=1"), "s", false)).toBeUndefined();
  });
});
