#!/usr/bin/env node
import { processIo } from './cli-io.js';
import { runCli } from './run-cli.js';

// The one place the process's exit code is set: every command returns its code through runCli.
process.exitCode = await runCli(process.argv.slice(2), processIo());
