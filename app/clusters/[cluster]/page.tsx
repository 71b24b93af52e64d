import { decodeSegment } from "@/lib/format/hrefs";
import { ClusterView } from "./_components/cluster-view";

interface ClusterPageProps {
  params: Promise<{ cluster: string }>;
}

export default async function ClusterPage({ params }: ClusterPageProps) {
  const { cluster } = await params;
  return <ClusterView cluster={decodeSegment(cluster)} />;
}
