# nlq: one image for the proxy, the web app and the CLI (`nlq demo load`, `nlq index`, ...).
# Build: docker build -t nlq .   (docker compose builds it for the proxy, web, demo-load and index services)
#
# Two stages: `build` installs every dependency and compiles (the nlq command into apps/cli/dist, the web app into
# apps/web/.next); the final stage installs production dependencies only (`npm ci --omit=dev`: no TypeScript, tsx,
# esbuild, vitest, Playwright) and copies the compiled output in. It runs as the unprivileged `node` user.
# Pinned by version tag (no registry access where this was written, so no digest); pin by digest for production.
FROM node:20.19-bookworm-slim AS build

# A C compiler for the proxy's native pass-through relay (packages/proxy/native, built by `npm run build` against the
# Node-API headers this image ships in /usr/local/include/node).
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# Dependencies first, so editing sources does not reinstall them.
COPY package.json package-lock.json ./
COPY packages/prompts/package.json packages/prompts/
COPY packages/engine/package.json packages/engine/
COPY packages/adapters/package.json packages/adapters/
COPY packages/mcp/package.json packages/mcp/
COPY packages/demo/package.json packages/demo/
COPY packages/eval/package.json packages/eval/
COPY packages/proxy/package.json packages/proxy/
COPY apps/cli/package.json apps/cli/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
COPY scripts/build-cli.mjs scripts/build-native-relay.mjs scripts/
# --ignore-scripts: the root `prepare` (the CLI build) needs the sources, copied next; it runs explicitly below.
RUN npm ci --no-audit --no-fund --ignore-scripts

COPY . .
RUN npm run build && npm run build -w @nlq/web && rm -rf apps/web/.next/cache

FROM node:20.19-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production

COPY package.json package-lock.json ./
COPY packages/prompts/package.json packages/prompts/
COPY packages/engine/package.json packages/engine/
COPY packages/adapters/package.json packages/adapters/
COPY packages/mcp/package.json packages/mcp/
COPY packages/demo/package.json packages/demo/
COPY packages/eval/package.json packages/eval/
COPY packages/proxy/package.json packages/proxy/
COPY apps/cli/package.json apps/cli/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
COPY scripts/build-cli.mjs scripts/build-native-relay.mjs scripts/
# Production dependencies only. The root `prepare` finds no esbuild here and keeps the copied build; the native relay
# finds no C compiler and says so (the one built above is copied in below).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Sources stay beside the build (.dockerignore leaves out node_modules, .next and dist): the compiled CLI finds
# migrations, the learnt retrieval model and the web app relative to them. Then the compiled output, newer than the
# sources, so bin/nlq.mjs runs it rather than falling back to tsx (which is a dev dependency, absent here).
COPY . .
COPY --from=build /app/apps/cli/dist apps/cli/dist
COPY --from=build /app/packages/proxy/native/build packages/proxy/native/build
COPY --from=build /app/apps/web/.next apps/web/.next

ENV NLQ_MIGRATIONS_DIR=/app/migrations \
    NLQ_HOME=/data
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 6432 3000 9187

# Default: the proxy, listening on every interface of the container. DATABASE_URL names the upstream.
CMD ["node", "apps/cli/bin/nlq.mjs", "proxy", "--listen", "0.0.0.0:6432", "--query-log"]
