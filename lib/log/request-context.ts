import { AsyncLocalStorage } from "node:async_hooks";

/** What every log line written while a request is handled carries. */
export interface RequestLogContext {
  readonly requestId: string;
}

// On globalThis: Next loads instrumentation and route handlers as separate module instances, which must share it.
const globalForContext = globalThis as unknown as { rollscopeRequestContext?: AsyncLocalStorage<RequestLogContext> };

function storage(): AsyncLocalStorage<RequestLogContext> {
  globalForContext.rollscopeRequestContext ??= new AsyncLocalStorage();
  return globalForContext.rollscopeRequestContext;
}

/** Runs `fn` (and everything it starts) as part of the request `context`. */
export function runInRequestContext<T>(context: RequestLogContext, fn: () => T): T {
  return storage().run(context, fn);
}

/** The request being handled, when there is one. */
export function currentRequestContext(): RequestLogContext | undefined {
  return storage().getStore();
}
