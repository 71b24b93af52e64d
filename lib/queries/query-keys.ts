/** Every React Query key of the app, from one factory. */
export const queryKeys = {
  fleet: () => ["fleet"] as const,
  rollout: (cluster: string, namespace: string, name: string) => ["rollout", cluster, namespace, name] as const,
};
