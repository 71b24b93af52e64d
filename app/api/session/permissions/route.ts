import { PermissionsQuery } from "@/lib/contracts/session";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { requireReadableRollout } from "@/lib/services/read-scope";
import { getRolloutPermissions } from "@/lib/services/session";

export const dynamic = "force-dynamic";

/** What the current user may do to one Rollout, as the cluster's RBAC (or the role mapping) says. */
export const GET = withRoute(async (request, { user }) => {
  const app = getAppContext();
  const rollout = PermissionsQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  await requireReadableRollout(app, { user, rollout });
  return respond("GET /api/session/permissions", await getRolloutPermissions(app, { rollout, user }));
});
