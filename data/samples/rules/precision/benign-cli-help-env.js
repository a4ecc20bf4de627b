// CLI help text that mentions environment variables.
const HELP = [
  'Usage: fmtcheck [options] <files...>',
  '  --ci        CI mode (also enabled when process.env.CI is set)',
  '  --token     API token (defaults to process.env.FMTCHECK_TOKEN)',
].join('\n');
module.exports = (argv) => { if (argv.includes('--help')) console.log(HELP); return !!process.env.CI; };
