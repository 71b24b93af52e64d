/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only Node packages: loaded from node_modules at run time instead of being bundled.
  serverExternalPackages: ["@kubernetes/client-node", "better-sqlite3", "@prisma/adapter-better-sqlite3", "prom-client"],
};

export default nextConfig;
