import { z } from "zod";
import { getRolloutPermissions } from "@/lib/actions/service";
import { withRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

const querySchema = z.strictObject({ cluster: z.string().min(1), namespace: z.string().min(1), name: z.string().min(1) });

/** What the current user may do to one Rollout, as the cluster's RBAC (or the role mapping) says. */
export const GET = withRoute(async (request, { user }) => {
  const target = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await getRolloutPermissions(target, user));
});
