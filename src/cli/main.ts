#!/usr/bin/env node
import { isGoldenError } from '../errors.js';
import { runCli } from './run-cli.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (isGoldenError(error)) {
      process.stderr.write(`[mcp-golden] ${error.message}\n`);
      process.exitCode = error.code === 'E_USAGE' ? 2 : 1;
      return;
    }
    process.stderr.write(
      `[mcp-golden] unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
