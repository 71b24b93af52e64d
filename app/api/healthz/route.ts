import { withPublicRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Liveness: the process answers. Nothing else is checked, so a failing dependency never gets the server restarted. */
export const GET = withPublicRoute(async () => Response.json({ alive: true }, { headers: { "cache-control": "no-store" } }));
