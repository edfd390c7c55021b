// testing-library's findBy/waitFor give up after 1 s by default. A lazy route's first import is
// transformed on demand, which takes longer than that while other test files share the CPU, so
// the wait is widened for every jsdom test; a test that truly fails still fails, only later.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}

export {};
