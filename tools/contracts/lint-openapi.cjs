#!/usr/bin/env node
// Validates the OpenAPI document with Redocly's recommended ruleset
// (@redocly/openapi-core): structural validation against the OpenAPI 3
// specification plus the recommended rules. Prints the problems as JSON with
// `--json`; exits 1 when any problem has severity "error".
const path = require('node:path');
const { lint, loadConfig } = require('@redocly/openapi-core');

const file = path.resolve(
  process.argv.slice(2).find((arg) => !arg.startsWith('--')) ??
    path.join(__dirname, '../../libs/shared/contracts/openapi.json'),
);

async function main() {
  const config = await loadConfig({ configPath: path.join(__dirname, 'redocly.yaml') });
  const problems = await lint({ ref: file, config });
  const report = problems.map((p) => ({
    severity: p.severity,
    rule: p.ruleId,
    message: p.message,
    pointer: p.location?.[0]?.pointer,
  }));
  if (process.argv.includes('--json')) console.log(JSON.stringify(report));
  else for (const p of report) console.log(`${p.severity} ${p.rule} ${p.pointer}: ${p.message}`);
  const errors = report.filter((p) => p.severity === 'error').length;
  if (!process.argv.includes('--json')) console.log(`${report.length} problems, ${errors} errors`);
  process.exit(errors > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
