// Types for the parts of npm's libraries the client uses that ship none.

declare module 'npm-registry-fetch/lib/default-opts.js' {
  const defaults: { readonly registry: string };
  export default defaults;
}

declare module 'npm-pick-manifest' {
  interface PickOptions {
    readonly defaultTag?: string;
    readonly before?: string | Date | null;
  }
  interface Picked {
    readonly name: string;
    readonly version: string;
  }
  function pickManifest(packument: unknown, wanted: string, opts?: PickOptions): Picked;
  export default pickManifest;
}
