// Sentences of the OpenAPI document generator (openapi-document.ts).

export const openApiMessages = {
  baseUrlWithoutVersion: (value: string) =>
    `The base URL "${value}" does not end in /v1, the version segment of {base_url}; pass the API root, e.g. https://host/v1.`,
};
