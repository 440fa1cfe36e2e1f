// Next.js configuration. NEXT_DIST_DIR lets several builds (a test run, a helper's run) live side by side.
/** @type {import('next').NextConfig} */
const nextConfig = {
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  // Load a route's code when a request first reaches it rather than every route and page at start: a server that
  // serves the API alone then never holds the staff pages' React renderer, nor the copies of the shared chunk that
  // Turbopack emits for the routes of other chunk groups. bench/roster: 13 MB less live heap after the warm-up (80 to
  // 67 MB), peak RSS 212-215 to 191-200 MB. The first request to a route pays its load once.
  experimental: { preloadEntriesOnStart: false },
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
