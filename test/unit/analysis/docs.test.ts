import { cleanReadme, declarationExports } from '../../../src/engine/docs';
import { analyzeSource } from './helpers';

describe('docs_md', () => {
  it('strips hidden README content and escapes invisible characters', () => {
    const md =
      '# Title\n<!-- secret instructions -->\n[//]: # (hidden note)\nVisible\u200b text <img src=x> ![badge](https://b.example/x.svg)\n';
    const out = cleanReadme(md);
    expect(out).not.toMatch(/secret instructions|hidden note|<img|badge/);
    expect(out).toMatch(/Visible text/);
  });
  it('lists exports from declaration files', () => {
    expect(
      declarationExports(
        'export declare function a(): void;\nexport class B {}\nexport { c as d };\nexport type E = 1;',
      ),
    ).toEqual(['a (function)', 'B (class)', 'E (type)', 'd']);
  });
  it('describes install scripts, capabilities and threats', () => {
    const r = analyzeSource({
      'package.json': JSON.stringify({
        name: '@scope/my-lib',
        version: '1.2.3',
        scripts: { postinstall: 'node x.js' },
      }),
      'x.js': "require('https').get('https://cdn.example.org/bin');",
      'index.js': 'module.exports.hello = () => 1;',
    });
    expect(r.docs_md).toMatch(/# @scope\/my-lib@1\.2\.3/);
    expect(r.docs_md).toMatch(/import myLib from '@scope\/my-lib';/);
    expect(r.docs_md).toMatch(/postinstall: `node x\.js`/);
    expect(r.docs_md).toMatch(/Network: makes requests \(domains: cdn\.example\.org\)/);
    expect(r.docs_md).toMatch(/- `hello`/);
  });
});
