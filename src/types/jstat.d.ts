// The members of jstat (1.9.6, no types published) that rdw uses: Student's t CDF, density and quantile.
declare module 'jstat' {
  interface StudentT {
    /** P(T <= x) for T ~ t(df). */
    cdf(x: number, df: number): number;
    /** The density of t(df) at x. */
    pdf(x: number, df: number): number;
    /** The p-quantile of t(df). */
    inv(p: number, df: number): number;
  }
  export const jStat: { readonly studentt: StudentT };
}
