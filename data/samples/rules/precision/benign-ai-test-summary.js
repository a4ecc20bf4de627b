// Dev script: asks a local AI CLI to summarise failing tests. Read-only prompt, no bypass flags.
const { execFileSync } = require('child_process');
const failures = require('fs').readFileSync('test-output.txt', 'utf8').slice(-20000);
const summary = execFileSync('claude', ['-p', 'Summarise these failing tests in five bullet points:\n' + failures], { encoding: 'utf8' });
console.log(summary);
