/**
 * Types for unzipper's streaming parser, imported by its own path so that a bundle takes the
 * parser alone (node built-ins only) and not unzipper's `Open`, which pulls in an S3 client,
 * bluebird and fs-extra.
 */
declare module 'unzipper/lib/parse.js' {
  import type { Duplex } from 'node:stream';

  /** With `forceStream`, a stream whose readable side yields one `Entry` per zip entry. */
  function Parse(options?: { forceStream?: boolean; verbose?: boolean }): Duplex;
  export default Parse;
}
