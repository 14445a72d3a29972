#!/usr/bin/env node
// The CLI is compiled to lib/ by `npm run build` (run by `npm ci` through `prepare`).
import { runMain } from '../lib/cli/main.js';

await runMain();
