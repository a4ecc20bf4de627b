export function autocomplete(input, render) {
  let timer;
  input.addEventListener('input', (e) => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const q = encodeURIComponent(e.target.value);
      const res = await fetch(`https://suggest.tinyac.example/v1?q=${q}`);
      render(await res.json());
    }, 150);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') render([]);
  });
}
