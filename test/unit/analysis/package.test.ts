import { mkdtemp, cp, symlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PackageResponse } from '../../../src/contract/schemas';
import { analyzeDirectory, analyzeTarball } from '../../../src/engine/index';
import { pkgJson, tgz } from './helpers';

const FIXTURES = join(__dirname, '../../fixtures/analysis');

describe('whole packages', () => {
  it('finds every layer of a malicious fixture package', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evil-'));
    try {
      await cp(join(FIXTURES, 'evil-pkg'), dir, { recursive: true });
      await symlink('/etc/passwd', join(dir, 'passwd-link'));
      const r = await analyzeDirectory(dir);
      expect(r.name).toBe('evil-pkg');
      expect(r.install_scripts).toEqual({
        preinstall: true,
        install: false,
        postinstall: true,
        prepare: false,
      });
      expect(r.risk_level).toBe('critical');
      const types = new Set(r.agentic_threats.filter((t) => t.confidence >= 0.5).map((t) => t.threat_type));
      for (const t of [
        'install_script_injection',
        'data_exfiltration',
        'prompt_injection',
        'instruction_override',
      ] as const) {
        expect(types).toContain(t);
      }
      // setup.js runs at install time, and so does the file it requires.
      const installTime = r.evidence.filter((f) => f.install_time).map((f) => f.file);
      expect(installTime).toEqual(expect.arrayContaining(['setup.js', 'lib/helper.js', 'package.json']));
      expect(r.evidence.some((f) => f.file === 'lib/helper.js' && f.rule === 'js.exec-npm-publish')).toBe(
        true,
      );
      expect(
        r.evidence.some((f) =>
          ['shell.ai-cli-unsafe', 'js.exec-ai-cli-unsafe', 'js.ai-cli-bypass'].includes(f.rule),
        ),
      ).toBe(true);
      expect(r.evidence.some((f) => f.rule === 'pkg.url-dependency')).toBe(true);
      expect(r.skipped_files).toContainEqual({
        path: 'passwd-link',
        reason: 'symlink (links are never followed)',
      });
      expect(r.capabilities.network.domains).toContain('collector.example.net');
      expect(r.capabilities.filesystem.paths).toContain('~/.ssh/id_rsa');
      expect(r.capabilities.process.commands).toEqual(expect.arrayContaining(['claude', 'npm']));
      expect(r.risk_reasons[0]).toMatch(/^[A-Z][^\n]+ in [\w./-]+:\d+/);
      // Hidden README content never reaches docs_md.
      expect(r.docs_md).not.toMatch(/ignore all previous instructions/i);
      expect(r.docs_md).toMatch(/Adds numbers/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rates a plain package clean, with docs and a valid response shape', async () => {
    const r = await analyzeDirectory(join(FIXTURES, 'clean-pkg'));
    expect(r.risk_level).toBe('clean');
    expect(r.agentic_threats).toEqual([]);
    expect(r.docs_md).toMatch(/# clean-pkg@2\.0\.0/);
    expect(r.docs_md).toMatch(/npm install clean-pkg/);
    expect(r.docs_md).toMatch(/`pad` → `cli\.js`/);
    expect(r.docs_md).toMatch(/padStart \(function\)/);
    expect(r.docs_md).toMatch(/License: MIT/);
    const response = {
      name: r.name,
      version: r.version,
      registry: 'npm',
      risk_level: r.risk_level,
      risk_reasons: r.risk_reasons,
      trust_score: 50,
      publisher: { name: 'x', verified: false },
      weekly_downloads: 0,
      install_scripts: r.install_scripts,
      cves: [],
      advisories: [],
      agentic_threats: r.agentic_threats,
      capabilities: r.capabilities,
      docs_md: r.docs_md,
      scanned_at: new Date(0).toISOString(),
    };
    expect(() => PackageResponse.parse(response)).not.toThrow();
  });

  it('is deterministic: same tarball, same result', async () => {
    const t = tgz([
      pkgJson({ scripts: { postinstall: 'node i.js' } }),
      { name: 'package/i.js', data: 'require("https").get("https://a.example.org/x")' },
    ]);
    const a = await analyzeTarball(t);
    const b = await analyzeTarball(t);
    const strip = (x: typeof a) => ({ ...x, stats: undefined });
    expect(strip(a)).toEqual(strip(b));
    expect(a.risk_level).toBe('warning');
    expect(a.risk_reasons[0]).toMatch(
      /Install scripts postinstall \("node i\.js"\) run code that makes network requests to a\.example\.org/,
    );
  });

  it('exposes the risk input so CVEs, advisories and trust can be added later', async () => {
    const { assessRisk } = await import('../../../src/engine/index');
    const r = await analyzeTarball(
      tgz([pkgJson(), { name: 'package/index.js', data: 'module.exports = 1;' }]),
    );
    expect(assessRisk(r.risk_input)).toEqual({ risk_level: r.risk_level, risk_reasons: r.risk_reasons });
    const later = assessRisk({ ...r.risk_input, advisories: [{ id: 'MAL-2025-0001' }], trust_score: 80 });
    expect(later.risk_level).toBe('critical');
  });

  it('counts binding.gyp without an install script as an install script', async () => {
    const r = await analyzeTarball(
      tgz([pkgJson(), { name: 'package/binding.gyp', data: '{ "targets": [] }' }]),
    );
    expect(r.install_scripts.install).toBe(true);
    expect(r.capabilities.native).toEqual({ has_native: true, native_modules: ['binding.gyp'] });
  });

  it('recognises bundled executables by their magic bytes', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(100)]);
    const r = await analyzeTarball(
      tgz([pkgJson(), { name: 'package/bin/tool', data: elf }, { name: 'package/addon.node', data: elf }]),
    );
    expect(r.capabilities.native.native_modules).toEqual(['addon.node', 'bin/tool']);
  });
});
