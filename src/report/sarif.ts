/** A rule of a SARIF report: a lint rule, or one kind of verify difference. */
export interface SarifRule {
  readonly id: string;
  /** One sentence: what the rule requires. */
  readonly description: string;
  /** Where the rule is written down. */
  readonly helpUri?: string;
}

/** One finding, located in a file (a golden) and, where known, a line. */
export interface SarifResult {
  readonly ruleId: string;
  readonly level: 'error' | 'warning' | 'note';
  /** The evidence, in words and numbers. */
  readonly message: string;
  /** The file, relative to the repository root, with `/` separators. */
  readonly file: string;
  /** 1-based line in `file`. */
  readonly line?: number;
}

/**
 * A SARIF 2.1.0 log (what GitHub code scanning uploads), one run of tool `tool`, as JSON text.
 *
 * @example
 * await writeFile('lint.sarif', sarifLog({ name: 'mcp-golden lint', version: '0.1.0' }, rules, results))
 */
export function sarifLog(
  tool: { readonly name: string; readonly version: string; readonly informationUri?: string },
  rules: readonly SarifRule[],
  results: readonly SarifResult[],
): string {
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            ...(tool.informationUri !== undefined && { informationUri: tool.informationUri }),
            rules: rules.map((r) => ({
              id: r.id,
              shortDescription: { text: r.description },
              ...(r.helpUri !== undefined && { helpUri: r.helpUri }),
            })),
          },
        },
        results: results.map((r) => ({
          ruleId: r.ruleId,
          ruleIndex: Math.max(
            0,
            rules.findIndex((rule) => rule.id === r.ruleId),
          ),
          level: r.level,
          message: { text: r.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: r.file },
                ...(r.line !== undefined && { region: { startLine: r.line } }),
              },
            },
          ],
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
