# Rollscope's image: Next.js's standalone server (only the node_modules it loads, no dev dependencies), run as a
# non-root user on a read-only root filesystem. Writable: the database directory (/data, a volume) and /tmp.
# Probes: /api/healthz and /api/readyz on port 3001 (a listener no load on port 3000 can delay; the HEALTHCHECK's too).
# Build: docker build -t rollscope .   Run: docker run -p 3000:3000 -v rollscope-data:/data rollscope   (docs/deploy.md)
# The Node major is package.json's engines' (scripts/image/dockerfile.test.ts checks). Pin the base by digest where a
# registry is reachable: `docker buildx imagetools inspect node:24-bookworm-slim` prints it; then build with
# --build-arg NODE_IMAGE=node:24-bookworm-slim@sha256:<digest> (or write it here).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# No compiler: better-sqlite3, the one native module, ships Node-API binaries for linux x64 and arm64 in its package.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY lib/db/database-url.ts ./lib/db/database-url.ts
RUN npm ci --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
# Serving under a sub-path is fixed at build time: docker build --build-arg ROLLSCOPE_BASE_PATH=/rollscope, and set
# server.basePath to the same value (docs/deploy.md).
ARG ROLLSCOPE_BASE_PATH=""
ENV ROLLSCOPE_BASE_PATH=${ROLLSCOPE_BASE_PATH}
RUN npx next build && bash scripts/build-standalone.sh

FROM ${NODE_IMAGE}
ARG NODE_IMAGE
# Filled in by the build: --build-arg VERSION=$(node -p 'require("./package.json").version') --build-arg REVISION=$(git rev-parse HEAD)
ARG VERSION=""
ARG REVISION=""
LABEL org.opencontainers.image.title="Rollscope" \
      org.opencontainers.image.description="Multi-cluster Argo Rollouts dashboard: live canary weights, traffic-router plugin health, audited actions." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.base.name="${NODE_IMAGE}"
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    ROLLSCOPE_METRICS_LISTEN=0.0.0.0:9464 \
    ROLLSCOPE_PROBE_LISTEN=0.0.0.0:3001 \
    DATABASE_URL=file:/data/rollscope.db \
    HOME=/tmp
WORKDIR /app
# Owned by root and not writable by the server's user: the application cannot change itself.
COPY --from=build /src/.next/standalone ./
RUN mkdir -p /data && chown 1000:1000 /data
# The base image's `node` user, by number so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
VOLUME ["/data"]
EXPOSE 3000 3001 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["node", "scripts/image/healthcheck.mjs"]
ENTRYPOINT ["/app/scripts/image/entrypoint.sh"]
