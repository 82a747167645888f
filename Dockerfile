# The Node server as a container image. Build the bundle first (dist/node/ runs on its own, no
# node_modules):   npm ci && npm run build && docker build -t kafka-groups-rest .
# What this image relies on is tested by test/runtime/container.test.ts (see docs/operations.md).
FROM node:20.20.2-bookworm-slim

ENV NODE_ENV=production \
    PORT=8080
WORKDIR /app
# Owned by root and not writable by the user the server runs as: nothing is written at run time,
# so a read-only root filesystem works.
COPY --chown=0:0 dist/node/ ./
# The image's `node` user, by number, so Kubernetes' runAsNonRoot can check it.
USER 1000:1000
EXPOSE 8080
# SIGTERM stops accepting, answers the requests in flight (10 s at most) and exits 0.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=3s CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.MANAGEMENT_PORT || process.env.PORT || 8080}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.mjs"]
