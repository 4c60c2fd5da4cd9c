/** The project config file the commands read from the working directory (a declaration's `--help` names it). */
export const CONFIG_FILE = 'mcp-golden.config.json';
