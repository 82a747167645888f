/**
 * What zod's `locales` re-export resolves to in the Worker (wrangler.toml's `[alias]`): English
 * only. zod ships every locale it has (some 260 KB minified) and this product never picks one;
 * the Node and Lambda builds do the same with an esbuild plugin (scripts/build.ts).
 */

export { default as en } from 'zod/v4/locales/en.js';
