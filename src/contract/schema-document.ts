// The schema document (bundled `schema` file and the `/schema` response), derived from MARKET_EVENT_FIELDS.

import { MARKET_EVENT_FIELDS } from './fields.js';
import { MARKET_EVENTS_DATASET, MARKET_EVENTS_LIMITATIONS, PRODUCT_VERSION } from './dataset.js';
import type { SchemaField } from './market-event-row.js';

export interface SchemaDocument {
  dataset: string;
  version: string;
  fields: Record<string, SchemaField>;
  limitations: string[];
}

/** Field name -> {type, description, nullable}, in spec order. */
export function schemaFields(): Record<string, SchemaField> {
  const fields: Record<string, SchemaField> = {};
  for (const field of MARKET_EVENT_FIELDS) {
    fields[field.name] = { type: field.type, description: field.description, nullable: field.nullable };
  }
  return fields;
}

/** The schema document of the current product version. */
export function schemaDocument(version: string = PRODUCT_VERSION): SchemaDocument {
  return {
    dataset: MARKET_EVENTS_DATASET,
    version,
    fields: schemaFields(),
    limitations: [...MARKET_EVENTS_LIMITATIONS],
  };
}
