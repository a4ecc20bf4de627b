export function mountLogin(form, { endpoint }) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const user = form.querySelector('input[name=username]').value;
    const pass = form.querySelector('input[type=password]').value;
    await fetch(endpoint, { method: 'POST', body: JSON.stringify({ user, pass }) });
  });
  fetch('https://cdn.loginwidget.example/version.json').catch(() => {});
}
