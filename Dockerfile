# The Insights Service as a container: `podman build -t insights .` (or docker build).
# Build stage: the full install and the build (compiled dist/, the web app's assets).
# Runtime stage: production dependencies only, no compilers, a non-root user.
ARG NODE_BASE=node:20-bookworm-slim

FROM ${NODE_BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Install scripts run in the next step, once the sources they build are there.
RUN npm ci --no-fund --no-audit --ignore-scripts
COPY . .
RUN npm rebuild --no-fund --no-audit && npm run build && npm prune --omit=dev --no-fund --no-audit
# What the runtime never reads: ECharts' prebuilt bundles (the server imports echarts/core, the web
# app is already bundled), tsx (bin/insights.js runs dist/), source maps and type declarations.
RUN rm -rf node_modules/echarts/dist node_modules/tsx node_modules/esbuild node_modules/@esbuild \
 && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete

FROM ${NODE_BASE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    INSIGHTS_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/LICENSE ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/models ./models
COPY --from=build /app/web/dist ./web/dist
# The embedded pages and the host script are served as they are (docs/embedding.md).
COPY --from=build /app/web/src/embed ./web/src/embed
RUN mkdir -p /data && chown node:node /data \
 && ln -s /app/bin/insights.js /usr/local/bin/insights
USER node
EXPOSE 8080
VOLUME ["/data"]
# Ready means the database and the warehouse answer, not only that the port is open.
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# The same V8 flag as `npm start`: 2 MB semi-spaces keep the idle footprint down (docs/footprint.md).
ENTRYPOINT ["node", "--max-semi-space-size=2", "/app/bin/insights.js"]
CMD ["serve"]
