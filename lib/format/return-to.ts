/** Any origin serves: the check is only whether a value resolves to the origin it is resolved against. */
const PROBE_ORIGIN = "http://rollscope.invalid";

/**
 * Where to send a browser back to after sign-in, as a path on this site; "/" for anything else. Parsed as the
 * browser will parse it: `/\t/evil.example` resolves to `//evil.example` once the tab is dropped, and `/\evil`
 * to `//evil`, so control characters and backslashes are refused outright and the rest must resolve to the
 * same origin it is resolved against.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith("//")) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
