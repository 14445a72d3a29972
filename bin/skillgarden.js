#!/usr/bin/env node
// The CLI is bundled to lib/bundle/cli/ by `npm run build` (run by `npm ci` through `prepare`):
// one chunk per command group, so a command loads only what it uses (scripts/build-cli.ts).
import { runMain } from '../lib/bundle/cli/main.js';

await runMain();
