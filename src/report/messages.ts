// User-facing sentences of the HTML reports that are not the analysis' or modelling's own.

export const reportMessages = {
  /** How a model study's intervals are computed, under the table: the pooled row's depends on the split (evaluateModel's pooledInterval). */
  modelIntervalsExplained: (pooledOverFolds: boolean) =>
    `A fold's: each block of its test days left out in turn; pooled: the test rows of every fold together (AUC: pairs within a fold), ${
      pooledOverFolds ? "its interval from the spread of the folds' scores" : "its interval from the same blocks over every fold's test days"
    }.`,
};
