import { z } from "zod";
import { withRoute } from "@/lib/http/route";
import { HEALTH_RANGES } from "@/lib/plugins/view-types";
import { getAppContext } from "@/lib/server/app-context";
import { getSharedPluginHealth } from "@/lib/services/plugin-health";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  range: z.enum(HEALTH_RANGES).default("1h"),
  cluster: z.string().min(1).optional(),
  plugin: z.string().regex(/^[a-zA-Z0-9-]+\/[a-zA-Z0-9_.-]+$/, { message: "must be <org>/<name>" }).optional(),
});

export const GET = withRoute(async (request) => {
  const query = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await getSharedPluginHealth(getAppContext(), query));
});
