/** Where a Rollout lives in the fleet. */
export interface RolloutRef {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
}

/** The fleet-wide key of a Rollout: `cluster/namespace/name`. */
export function rolloutKeyOf({ cluster, namespace, name }: RolloutRef): string {
  return `${cluster}/${namespace}/${name}`;
}

/**
 * Splits a fleet key (`cluster/namespace/name`) back into its parts. Namespace and name are DNS labels and never
 * contain "/", so everything before them is the cluster, whatever it is called.
 */
export function parseRolloutKey(key: string): RolloutRef | null {
  const nameAt = key.lastIndexOf("/");
  const namespaceAt = nameAt > 0 ? key.lastIndexOf("/", nameAt - 1) : -1;
  if (namespaceAt <= 0) return null;
  return { cluster: key.slice(0, namespaceAt), namespace: key.slice(namespaceAt + 1, nameAt), name: key.slice(nameAt + 1) };
}
