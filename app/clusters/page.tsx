import { ClusterListView } from "./_components/cluster-list-view";

export default function ClustersPage() {
  return <ClusterListView />;
}
