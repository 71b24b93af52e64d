import "server-only";
import https from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import type { RequestInit } from "node-fetch";

/**
 * The kubeconfig's transport for one request (its TLS agent, reused; its credentials, fresh: a token from an exec
 * plugin can change), as client-node applies it. The headers are a node-fetch Headers: copy them, never spread them.
 */
export async function kubeFetchOptions(kubeConfig: KubeConfig): Promise<RequestInit> {
  const base = (await kubeConfig.applyToFetchOptions({})) as RequestInit;
  return { ...base, agent: reusedAgent(kubeConfig, base.agent) };
}

/**
 * How long a connection may stay idle before the agent closes it: under the idle limits API servers and the load
 * balancers before them commonly apply, so a request rarely goes out on a connection the other end is closing.
 */
const IDLE_CONNECTION_MS = 30_000;

/**
 * The keep-alive agent kubeRequest uses for a kubeconfig. client-node builds a new agent for every request, so each one
 * opened its own TLS connection: a handshake and a secure context built from the CA and client certificate, 4–6 ms of
 * the event loop per request (a CPU profile at 5,000 Rollouts: the overview's actions for its visible rows, a
 * detail page's readiness and actions, each a read of the Rollout). Requests now share the kubeconfig's connections,
 * as kubectl's do; the agent is rebuilt when client-node's TLS settings change (a rotated client certificate from an
 * exec plugin), and the old one closes its connections once the requests it carries are done. Proxy agents and
 * plain-HTTP agents are used as client-node built them.
 */
const reusedAgents = new WeakMap<KubeConfig, { options: AgentTlsOptions; agent: https.Agent }>();

/** The options client-node built an agent with: who the cluster is and who Rollscope is to it (CA, client certificate). */
type AgentTlsOptions = Record<string, unknown>;

function reusedAgent(kubeConfig: KubeConfig, built: RequestInit["agent"]): RequestInit["agent"] {
  if (!(built instanceof https.Agent) || Object.getPrototypeOf(built) !== https.Agent.prototype) return built;
  const options: AgentTlsOptions = { ...built.options };
  const kept = reusedAgents.get(kubeConfig);
  if (kept && sameTlsOptions(kept.options, options)) return kept.agent;
  // Idle connections close now; busy ones when their request ends (the replaced agent keeps no free connection).
  if (kept) retireAgent(kept.agent);
  const agent = new https.Agent({ ...built.options, keepAlive: true, timeout: built.options.timeout ?? IDLE_CONNECTION_MS });
  reusedAgents.set(kubeConfig, { options, agent });
  return agent;
}

function retireAgent(agent: https.Agent): void {
  agent.maxFreeSockets = 0;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

/** Whether two agents' options are the same, each of them (certificates as strings or buffers, or lists of them). */
export function sameTlsOptions(a: AgentTlsOptions, b: AgentTlsOptions): boolean {
  const same = (x: unknown, y: unknown): boolean => {
    if (Buffer.isBuffer(x) && Buffer.isBuffer(y)) return x.equals(y);
    if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((item, i) => same(item, y[i]));
    return x === y;
  };
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((name) => same(a[name], b[name]));
}
