/**
 * Shared infrastructure (no area): git checkouts and file globs, for every area that reads files
 * from a repository or a directory (the catalog's file scraper, the playbook sync).
 */
export { checkoutGit, scrubGit } from './checkout.ts';
export { globFiles } from './glob.ts';
export { checkRoots, gitUrlRefusal, globRefusal, localPathRefusal, realInside, setCheckRoots } from './roots.ts';
