#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded here. Migrations use the wasm engine.
echo "The native schema engine is not installed: use npm run db:migrate / db:migrate:create" >&2
exit 1
