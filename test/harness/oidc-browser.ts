import { expect } from "vitest";
import { httpCall, type CallOptions, type Reply } from "@/test/harness/route-bridge";
import type { OidcProviderHandle } from "./oidc-provider";

/** Cookies per origin, as a browser keeps them (name=value only; attributes are checked separately). */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  cookies(origin: string): Map<string, string> {
    let cookies = this.jar.get(origin);
    if (!cookies) this.jar.set(origin, (cookies = new Map()));
    return cookies;
  }

  /** The Cookie header this browser sends to the origin. */
  cookieHeader(origin: string): string {
    return [...this.cookies(origin)].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(url: string, options: CallOptions = {}): Promise<Reply> {
    const origin = new URL(url).origin;
    const cookie = this.cookieHeader(origin);
    const reply = await httpCall(url, { ...options, headers: { ...(cookie ? { cookie } : {}), ...options.headers } });
    for (const line of reply.headers["set-cookie"] ?? []) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || attributes.some((a) => /max-age=0/i.test(a.trim()))) this.cookies(origin).delete(name);
      else this.cookies(origin).set(name, value);
    }
    return reply;
  }

  /**
   * Follows redirects (GET) until a non-redirect answer, or one leading outside `origins` when given; returns every
   * hop.
   */
  async follow(url: string, options: CallOptions = {}, origins?: readonly string[]): Promise<Reply[]> {
    const hops: Reply[] = [];
    let next: string | undefined = url;
    let first = true;
    while (next && (!origins || origins.includes(new URL(next).origin)) && hops.length < 20) {
      const reply = await this.request(next, first ? options : {});
      first = false;
      hops.push(reply);
      next = reply.status >= 300 && reply.status < 400 ? new URL(String(reply.headers.location), next).href : undefined;
    }
    return hops;
  }
}

/**
 * Signs in to Rollscope at `appUrl` through the provider's login form, as a browser following the redirects would;
 * returns the browser and every hop (the last one back at Rollscope).
 */
export async function signIn(
  appUrl: string,
  provider: OidcProviderHandle,
  login: string,
  returnTo = "/rollouts/prod/shop/checkout",
): Promise<{ browser: Browser; hops: Reply[] }> {
  const browser = new Browser();
  const hops = await browser.follow(`${appUrl}/api/auth/signin?returnTo=${encodeURIComponent(returnTo)}`);
  const form = hops.at(-1);
  expect(form?.text).toContain('name="login"');
  const action = /action="([^"]+)"/.exec(form?.text ?? "")?.[1];
  expect(action).toBeTruthy();
  const loginUrl = new URL(action ?? "", provider.issuer).href;
  const posted = await browser.request(loginUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ prompt: "login", login, password: "any" }).toString(),
  });
  expect(posted.status).toBe(303);
  const rest = await browser.follow(new URL(String(posted.headers.location), loginUrl).href);
  return { browser, hops: [...hops, posted, ...rest] };
}

/**
 * Signs in at `appUrl` through an oidc-provider login form, starting from `/api/auth/signin?<signInQuery>`; returns
 * the browser and every hop up to the app's last answer (a redirect to anywhere else is not followed).
 */
export async function signInThroughProvider(
  appUrl: string,
  issuer: string,
  login: string,
  signInQuery: string,
): Promise<{ browser: Browser; hops: Reply[] }> {
  const browser = new Browser();
  const origins = [new URL(appUrl).origin, new URL(issuer).origin];
  const hops = await browser.follow(`${appUrl}/api/auth/signin?${signInQuery}`, {}, origins);
  const form = hops.at(-1);
  const action = /action="([^"]+)"/.exec(form?.text ?? "")?.[1];
  if (!action) throw new Error(`no login form at the end of the sign-in redirects: ${form?.status} ${form?.text.slice(0, 200)}`);
  const loginUrl = new URL(action, issuer).href;
  const posted = await browser.request(loginUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ prompt: "login", login, password: "any" }).toString(),
  });
  const rest = await browser.follow(new URL(String(posted.headers.location), loginUrl).href, {}, origins);
  return { browser, hops: [...hops, posted, ...rest] };
}
