import { withRoute } from "@/lib/http/route";
import { getDeltaLog } from "@/lib/live/delta-log";
import { createFleetEventStream } from "@/lib/live/sse-stream";

export const dynamic = "force-dynamic";

export const GET = withRoute(async (request) => {
  const stream = createFleetEventStream(getDeltaLog(), request.headers.get("last-event-id"), request.signal);
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
