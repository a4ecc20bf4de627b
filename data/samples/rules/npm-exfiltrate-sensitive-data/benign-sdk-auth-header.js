// An API client sending its own API key to its own service, as SDKs do.
const BASE = 'https://api.weather-sdk.example/v1';
module.exports = async function forecast(city) {
  const r = await fetch(BASE + '/forecast?city=' + encodeURIComponent(city), { headers: { authorization: 'Bearer ' + process.env.WEATHER_API_KEY } });
  return r.json();
};
