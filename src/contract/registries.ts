/** Registries the service scans. Kept apart from the schemas so request validation needs no zod. */
export const REGISTRIES = ['npm'] as const;
