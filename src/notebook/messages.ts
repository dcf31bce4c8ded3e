// Every user-facing sentence of the notebook helpers.

export const notebookMessages = {
  notInKernel: () =>
    'This display helper only works inside a running tslab kernel (a Jupyter notebook); in a script, print textTable(...) or write the SVG with renderSvg(...) instead.',
  badHistoryField: (field: string) => `"${field}" is not a numeric field of the snapshot items; pick a column of the dataset's CSV.`,
};
