/**
 * zod's `locales` re-export, in the bundles: English only. zod ships every locale it has (some
 * 260 KB minified) and this product never picks one.
 */

export { default as en } from 'zod/v4/locales/en.js';
