import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** Every flaw a lint server can have ('good' has none). */
export declare const FLAWS: readonly string[];
/** An SDK server whose tool `work` has the given flaw. */
export declare function createLintServer(flaw: string): Server;
