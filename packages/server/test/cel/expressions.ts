/** Pathological CEL expressions shared by the limit tests (issue 12 point 5). */
const TEN = '[0,1,2,3,4,5,6,7,8,9]';
/** 7 nested all() over 10 elements: 10,000,000 iterations, 240 characters */
export const NESTED = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].reduceRight(
  (inner, v) => `${TEN}.all(${v}, ${inner})`,
  'a + b + c + d + e + f + g >= 0',
);
/** each level repeats the previous string ten times: 10^8 characters at the ninth */
export const DOUBLING = (() => {
  const v = 'abcdefghi'.split('');
  let inner = `${v[v.length - 1]}.size()`;
  for (let i = v.length - 1; i > 0; i--)
    inner = `[${Array(10)
      .fill(v[i - 1])
      .join('+')}].map(${v[i]}, ${inner})`;
  return `["x"].map(a, ${inner}) == []`;
})();
