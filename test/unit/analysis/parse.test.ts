/**
 * The parser repair: a file that does not parse has its failing lines blanked (offsets and line
 * breaks kept) until it parses, so that one stray line does not turn code into "text only".
 */
import { closeOpenBrackets, parseSource } from '../../../src/engine/js/parse';

describe('parse repair', () => {
  it('blanks a stray word left by a wrapped comment, not the property after it (CRLF file)', () => {
    const src =
      'const o = {\r\n  host: "a", // comment that wrapped and\r\nleft\r\n  port: 1,\r\n  path: "/",\r\n};\r\n';
    const r = parseSource(src, 'index.js');
    expect(r.error).toBeUndefined();
    expect(r.repairedLines).toHaveLength(1);
  });

  it('uses the parser offset when a lone CR makes its line numbers differ from \\n lines', () => {
    const src = '// a\rb = 1;\nconst x = ;\nmodule.exports = 2;\n';
    const r = parseSource(src, 'index.js');
    expect(r.error).toBeUndefined();
    expect(r.ast).toBeDefined();
  });

  it('gives up on text that is not JavaScript', () => {
    expect(
      parseSource('%%% ### !!!\n@@@ ^^^\n&&& ***\n((( )))\n{{{ }}}\n[[[ ]]]\n::: ;;;\n', 'x.js').error,
    ).toBeDefined();
  });
});

describe('sources that end inside open brackets', () => {
  it('closes them so code cut off half-way is still analysed', () => {
    const out = parseSource(
      `const https = require('https');\nconst req = https.request({ hostname: 'x.example' }, (res) => {\n  res.on('data', (d) => {\n// });\n`,
      'a.js',
    );
    expect(out.error).toBeUndefined();
    expect(out.ast).toBeDefined();
  });
  it('leaves sources whose brackets do not match alone', () => {
    expect(closeOpenBrackets('a(b]')).toBeUndefined();
    expect(closeOpenBrackets('f(1, {')).toBe('f(1, {\n})\n');
  });
});
