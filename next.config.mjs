// Next.js configuration. NEXT_DIST_DIR lets several builds (a test run, a helper's run) live side by side.
/** @type {import('next').NextConfig} */
const nextConfig = {
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  // The middleware (proxy) runs on the staff 835 upload and hands the route a buffered copy of the body, cut off
  // at this size (10 MiB by default): 1 MiB over the upload's 64 MiB cap, so a larger body still reaches the route
  // as more than the cap and is answered 413, never posted as a truncated file (lib/remittances/read-upload.ts).
  experimental: { proxyClientMaxBodySize: 65 * 1024 * 1024 },
  reactStrictMode: true,
  // `npm test` runs `tsc --noEmit` over the whole project (tests included) before building; a second check
  // inside the build would only repeat it.
  typescript: { ignoreBuildErrors: true },
  // These load .wasm/.data files from disk at run time; bundling them would break the paths.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pglite-prisma-adapter',
    'pino',
    '@prisma/schema-engine-wasm',
    'pg-boss',
  ],
};
export default nextConfig;
