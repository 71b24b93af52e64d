import { withRoute } from "@/lib/http/route";
import { listFleetRollouts } from "@/lib/rollouts/service";

export const dynamic = "force-dynamic";

export const GET = withRoute(async () => Response.json(listFleetRollouts()));
