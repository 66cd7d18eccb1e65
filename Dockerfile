# The standalone host as an image (docs/deployment.md). Build: docker build -t merchant-payments .
# Stage 1 compiles; stage 2 holds only dist/, production node_modules and package.json.
FROM node:20-slim AS build
WORKDIR /app
# better-sqlite3 (under @effect/sql-sqlite-node) is compiled from source when no prebuilt binary is
# downloadable: these are its build tools. They stay in this stage.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm install, not npm ci: the lockfile lacks other platforms' optional packages, which npm ci refuses
# (DESIGN.md); npm install uses the lockfile unchanged.
RUN npm install
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
# package.json marks dist/ as ES modules and anchors GATEWAY_PLUGINS package names.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# With SQLite (no DATABASE_URL) the host keeps its database and secrets in ./data.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# node itself is PID 1's command (not npm): SIGTERM from docker stop reaches the host, which stops
# accepting, lets requests in flight finish (up to 10 s) and closes the pool.
CMD ["node", "dist/hosts/standalone/main.js", "serve"]
