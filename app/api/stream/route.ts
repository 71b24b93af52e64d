import { withRoute } from "@/lib/http/route";
import { createFleetEventStream } from "@/lib/live/sse-stream";
import { getAppContext } from "@/lib/server/app-context";

export const dynamic = "force-dynamic";

export const GET = withRoute(async (request) => {
  const stream = createFleetEventStream(getAppContext().deltaLog, request.headers.get("last-event-id"), request.signal);
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
