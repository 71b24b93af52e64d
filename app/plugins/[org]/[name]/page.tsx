import type { Metadata } from "next";
import { Suspense } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { decodeSegment } from "@/lib/format/hrefs";
import { PluginPage } from "../../_components/plugin-page";

interface Props {
  params: Promise<{ org: string; name: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org, name } = await params;
  return { title: `${decodeSegment(org)}/${decodeSegment(name)} · Plugins · Rollscope` };
}

export default async function Page({ params }: Props) {
  const { org, name } = await params;
  return (
    <Suspense fallback={<Skeleton className="h-40 w-full" />}>
      <PluginPage name={`${decodeSegment(org)}/${decodeSegment(name)}`} />
    </Suspense>
  );
}
