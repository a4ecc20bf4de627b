/**
 * The deployed functions' credential provider. Lambda gives every function its role's credentials
 * as environment variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), the
 * first place the SDK's default chain looks; the chain's other sources (SSO, web identity, ini
 * files, process, container and instance metadata) are never reached there but cost ≈ 90 KB of
 * every bundle. The bundler resolves `@aws-sdk/credential-provider-node` to this module
 * (`CREDENTIALS_ALIAS` in lib/bundling.ts), which keeps the chain's export and its first link.
 * Sources run by tsx (tests, the local service) keep the SDK's own chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** Same name and shape as the SDK's default chain: credentials from the environment only. */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
