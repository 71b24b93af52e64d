import { parseStreamQuery } from "@/lib/contracts/stream";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { openLiveStream } from "@/lib/services/live-stream";

export const dynamic = "force-dynamic";

export const GET = withRoute(async (request, { user, clientAddress }) => {
  const query = parseStreamQuery(new URL(request.url).searchParams);
  const stream = await openLiveStream(getAppContext(), {
    query,
    lastEventId: request.headers.get("last-event-id"),
    signal: request.signal,
    user,
    clientAddress,
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
