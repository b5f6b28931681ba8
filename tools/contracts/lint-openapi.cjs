#!/usr/bin/env node
// Validates the OpenAPI document with Redocly's recommended ruleset
// (@redocly/openapi-core): structural validation against the OpenAPI 3
// specification plus the recommended rules. Prints the problems as JSON with
// `--json`; exits 1 when any problem has severity "error".
const path = require('node:path');

const HELP = `usage: node tools/contracts/lint-openapi.cjs [options] [document]

Validates an OpenAPI document (default libs/shared/contracts/openapi.json) with
Redocly's recommended rules, every warning an error (tools/contracts/redocly.yaml):
one line per problem, then a count. Exit 1 when a problem has severity "error", 2 when it cannot run.

options:
  --json       print the problems as one JSON array instead
  -h, --help   print this help`;

async function main() {
  const { parseCommandLine, usageError } = await import('../lib/command-line.mjs');
  const { values, positionals } = parseCommandLine({
    name: 'lint-openapi',
    usage: HELP,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals.length > 1) usageError('lint-openapi', 'one document at most');
  const file = path.resolve(
    positionals[0] ?? path.join(__dirname, '../../libs/shared/contracts/openapi.json'),
  );
  const { lint, loadConfig } = require('@redocly/openapi-core');
  const config = await loadConfig({ configPath: path.join(__dirname, 'redocly.yaml') });
  const problems = await lint({ ref: file, config });
  const report = problems.map((p) => ({
    severity: p.severity,
    rule: p.ruleId,
    message: p.message,
    pointer: p.location?.[0]?.pointer,
  }));
  if (values.json) console.log(JSON.stringify(report));
  else for (const p of report) console.log(`${p.severity} ${p.rule} ${p.pointer}: ${p.message}`);
  const errors = report.filter((p) => p.severity === 'error').length;
  if (!values.json) console.log(`${report.length} problems, ${errors} errors`);
  process.exit(errors > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
