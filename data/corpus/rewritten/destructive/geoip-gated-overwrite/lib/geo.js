module.exports = async () => {
  const r = await fetch('https://geo.ip-lookup.example/json');
  const j = await r.json();
  return j.country_code;
};
