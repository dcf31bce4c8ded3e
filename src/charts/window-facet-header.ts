// How a chart with one row of panels per window names each panel: the window above its panel, at its left edge,
// bold. The default (the label left of the row, rotated, under a shared "window" title) sat far from the rows it
// named in a new user's trial.

/** The Vega-Lite `header` of a `facet.row` on the window field (give the facet `title: null`). */
export const WINDOW_HEADER = { labelAngle: 0, labelOrient: 'top', labelAnchor: 'start', labelFontWeight: 'bold', labelFontSize: 13, labelPadding: 4 } as const;
