/**
 * Hosts of request-capture, out-of-band testing and tunnelling services. Legitimate packages do
 * not call them from their code or install scripts; dependency-confusion beacons and stealers do.
 * Used by the JavaScript and the script rules alike.
 */
export const EXFIL_HOST =
  /(?:^|\.)(?:oastify\.com|burpcollaborator\.net|interact\.sh|interactsh\.com|oast\.(?:fun|live|site|online|pro|me)|pipedream\.net|webhook\.site|requestbin\.(?:net|com)|requestcatcher\.com|ngrok(?:-free)?\.(?:io|app|dev)|beeceptor\.com|hookb\.in|canarytokens\.com|dnslog\.cn|ceye\.io|trycloudflare\.com)$/i;
