# nlq: one image for the proxy, the web app and the CLI (`nlq demo load`, `nlq index`, ...).
# Build: docker build -t nlq .   (docker compose builds it for the proxy, web and demo-load services)
FROM node:20-bookworm-slim

WORKDIR /app

# Dependencies first, so editing sources does not reinstall them.
COPY package.json package-lock.json ./
COPY packages/prompts/package.json packages/prompts/
COPY packages/engine/package.json packages/engine/
COPY packages/adapters/package.json packages/adapters/
COPY packages/demo/package.json packages/demo/
COPY packages/eval/package.json packages/eval/
COPY apps/proxy/package.json apps/proxy/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund

COPY . .
# The web app is built once, here; the TypeScript of the proxy and CLI runs through tsx (no build step).
RUN npm run build -w @nlq/web

ENV NODE_ENV=production \
    NLQ_MIGRATIONS_DIR=/app/migrations \
    NLQ_HOME=/data
VOLUME ["/data"]
EXPOSE 6432 3000

# Default: the proxy, listening on every interface of the container. DATABASE_URL names the upstream.
CMD ["node", "apps/proxy/bin/nlq.mjs", "proxy", "--listen", "0.0.0.0:6432", "--query-log"]
