/*
 * For tests that call Rollscope's route handlers in-process (no server): a browser's session, and stopping what the
 * app context started. The handlers are imported lazily, after the test has set ROLLSCOPE_CONFIG and DATABASE_URL.
 */

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;

/** The CSRF token and session cookie a browser gets from GET /api/session, as the actions API requires them. */
export interface InProcessSession {
  token: string;
  cookie: string;
}

export async function openInProcessSession(origin: string): Promise<InProcessSession> {
  const session = (await import("@/app/api/session/route")) as { GET: Handler<Record<string, never>> };
  const res = await session.GET(new Request(`${origin}/api/session`, { headers: { host: new URL(origin).host } }), {
    params: Promise.resolve({}),
  });
  const body = (await res.json()) as { csrfToken: string };
  return { token: body.csrfToken, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] };
}

/** Stops the cluster watches of the in-process app context, if the test got as far as configuring it. */
export async function stopInProcessApp(): Promise<void> {
  if (!process.env.ROLLSCOPE_CONFIG) return;
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
}
