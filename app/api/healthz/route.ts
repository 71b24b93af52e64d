import { respond } from "@/lib/http/respond";
import { withPublicRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Liveness: the process answers. Nothing else is checked, so a failing dependency never gets the server restarted. */
export const GET = withPublicRoute(async () => respond("GET /api/healthz", { alive: true }, { headers: { "cache-control": "no-store" } }));
