# A production image on the official Node.js 24 LTS image. Build: docker build -t clinic-revenue .
# Run: docker run -e SVC_ENV=production -e DATABASE_URL=… -e AUTH_SECRET=… … -p 3000:3000 clinic-revenue
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN NEXT_TELEMETRY_DISABLED=1 npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000
COPY --from=build --chown=node:node /app ./
USER node
EXPOSE 3000
# npm start migrates (wasm schema engine), sees the build is current and serves; SVC_ENV and DATABASE_URL come from
# the deployment's environment.
CMD ["npm", "start"]
