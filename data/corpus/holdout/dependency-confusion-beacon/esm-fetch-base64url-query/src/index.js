export const defaults = Object.freeze({
  currency: "USD",
  locale: "en-US",
  theme: "light",
  retries: 2,
});

export function mergeConfig(user = {}) {
  return { ...defaults, ...user };
}
