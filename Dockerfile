# syntax=docker/dockerfile:1
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY packages/types/package.json packages/types/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
ENV TURBO_TELEMETRY_DISABLED=1
RUN npx turbo run build --filter=@portfolio/server --filter=@portfolio/web \
 && find apps/web/dist -name '*.map' -delete \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# g++ and bubblewrap power the sandboxed C++ runner on POST /run-code (util-linux: setpriv and
# prlimit; binutils, with g++, brings the gold linker). The server runs as root here, as it must:
# it drops each run to its own numeric uid (61000 + slot; no account needed) before bubblewrap,
# which then runs unprivileged in a new user namespace. That needs, and only needs:
#   docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined …
# (Docker's default seccomp profile refuses new user namespaces; its AppArmor profile refuses the
# mounts bubblewrap makes. No --cap-add and no --privileged: SYS_ADMIN is not needed.) On the host,
# user namespaces must be enabled (user.max_user_namespaces > 0; on Ubuntu 24.04+ also
# kernel.apparmor_restrict_unprivileged_userns=0). The sandbox mounts no /proc, so Docker's masked
# /proc paths do not get in the way. The server checks all this at start; when the sandbox does not
# work, POST /run-code answers 503 with the reason and no code is run.
# postgresql-client: pg_dump and pg_restore for node apps/server/dist/cli/backup.js and restore.js
RUN apt-get update && apt-get install -y --no-install-recommends g++ bubblewrap util-linux \
    postgresql-client \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Production needs three settings the image cannot know: PUBLIC_ORIGIN (the site's address as
# browsers see it; writes and sockets from any other origin are refused, and the server does not
# start without it), GAMES_ORIGIN (the games' address, on another registrable domain: the server
# does not start with games on the site's domain, whose cookies they would share) and
# SESSION_SECRET (32+ characters), e.g.
#   docker run -p 3000:3000 -p 3001:3001 -v portfolio-data:/data \
#     -e PUBLIC_ORIGIN=https://example.com -e GAMES_ORIGIN=https://example-games.net \
#     -e SESSION_SECRET=… --security-opt seccomp=unconfined --security-opt apparmor=unconfined …
# (PUBLIC_ORIGIN=http://localhost:3000 GAMES_ORIGIN=http://127.0.0.1:3001 to try it on this
# machine: the other loopback name is another cookie jar). HOST is 0.0.0.0 here so the
# published port reaches the server; outside a container the default is 127.0.0.1.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/packages/types ./packages/types
COPY --from=build /app/packages/games ./packages/games
COPY --from=build /app/apps/server/package.json ./apps/server/
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/server/drizzle ./apps/server/drizzle
COPY --from=build /app/apps/web/dist ./apps/web/dist
VOLUME /data
# 3000 the site, 3001 the games origin (GAMES_PORT; give it a domain of its own: GAMES_ORIGIN)
EXPOSE 3000 3001
# ready = migrated, PostgreSQL (or PGlite) and Redis answering, not shutting down
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/api/ready').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
