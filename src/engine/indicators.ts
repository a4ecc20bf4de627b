/**
 * Indicators shared by the JavaScript and the script rules.
 */

/** Credential, key, wallet and browser-profile files. */
export const SENSITIVE_PATH =
  /(?:^|[\\/])\.env(?:\.(?:local|production|prod|development|dev|staging|test)(?:\.local)?)?$|(?:^|[\\/])\.ssh(?:[\\/\s"',;)]|$)|id_(?:rsa|dsa|ecdsa|ed25519)|\.aws(?:[\\/](?:credentials|config)|(?<=[\\/~]\.aws)(?=[\s"',;)]|[\\/]\*|$))|\.npmrc|\.netrc|\.pypirc|\.git-credentials|\.docker[\\/]config\.json|\.kube[\\/]config|gcloud[\\/](?:credentials|application_default)|\/etc\/(?:passwd|shadow)|\.bash_history|\.zsh_history|Local Storage[\\/]leveldb|Login Data|\bCookies\b|Web Data|Local State|wallet\.dat|[\\/]Exodus[\\/]|\.electrum|keystore[\\/]|solana[\\/]id\.json|\.config[\\/]solana|MetaMask|nkbihfbeogaeaoehlefnkodbefgpgknn|keychain|\.gnupg|\bgh[\\/]hosts\.yml|\.config[\\/]hub\b|\.azure[\\/](?:accessTokens\.json|msal_token_cache)|\.terraform\.d[\\/]credentials|\.pgpass\b|keyrings[\\/]|Telegram Desktop[\\/]tdata|\.config[\\/]op[\\/]|\.vault-token\b|\b(?:logins\.json|key[34]\.db)\b|filezilla[\\/](?:sitemanager|recentservers)\.xml|\.cargo[\\/]credentials|\.gem[\\/]credentials|\.m2[\\/]settings\.xml|\.s3cfg\b|\.boto\b|rclone[\\/]rclone\.conf|serviceaccount[\\/]token\b/i;

/**
 * Hosts of request-capture, out-of-band testing and tunnelling services. Legitimate packages do
 * not call them from their code or install scripts; dependency-confusion beacons and stealers do.
 */
export const EXFIL_HOST =
  /(?:^|\.)(?:oastify\.com|burpcollaborator\.net|interact\.sh|interactsh\.com|oast\.(?:fun|live|site|online|pro|me)|pipedream\.net|webhook\.site|requestbin\.(?:net|com)|requestcatcher\.com|ngrok(?:-free)?\.(?:io|app|dev)|beeceptor\.com|hookb\.in|canarytokens\.com|dnslog\.cn|ceye\.io|trycloudflare\.com)$/i;
