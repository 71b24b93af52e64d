import { FleetOverview } from "./_components/fleet-overview";

export default function HomePage() {
  return <FleetOverview />;
}
