// Test helper: checks one HTTP answer (status, content type, required headers, body) against the operation
// an OpenAPI 3.1 document gives for its path, with Ajv 2020 (the JSON Schema dialect of OAS 3.1).
// Imports no rdw module: it judges any server (the mock, Prism, a foreign server) by the document alone.

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = { [key: string]: unknown };

/** What a server answered. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** The verdict on one answer: the operation it was judged by and what did not conform (empty = conforms). */
export interface OpenApiVerdict {
  operationId: string | undefined;
  /** The status had its own entry in `responses` (false: judged by `default`, or not at all). */
  documented: boolean;
  problems: string[];
}

interface PathRoute {
  template: string;
  pattern: RegExp;
  templated: number;
  item: Json;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pointer = (...parts: string[]): string => parts.map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/** The path of a server object's URL, its variables at their defaults ('' for a server at a root). */
function serverPath(server: Json | undefined): string {
  if (server === undefined) return '';
  const variables = (server.variables ?? {}) as Record<string, { default: string }>;
  const url = String(server.url).replace(/\{([^}]+)\}/g, (_match, name: string) => variables[name]?.default ?? '');
  return new URL(url, 'http://server.invalid').pathname.replace(/\/$/, '');
}

/**
 * Validates answers against `document`: a path is served under its own server's path (or the document's),
 * with the servers' variables at their defaults, as an OpenAPI client composes URLs.
 */
export class OpenApiValidator {
  readonly #document: Json;
  readonly #routes: PathRoute[];
  readonly #ajv: Ajv2020;

  constructor(document: Json) {
    this.#document = document;
    const documentPath = serverPath((document.servers as Json[] | undefined)?.[0]);
    this.#routes = Object.entries(document.paths as Record<string, Json>)
      .map(([template, item]) => {
        const prefix = item.servers ? serverPath((item.servers as Json[])[0]) : documentPath;
        const source = escape(prefix + template).replace(/\\\{[a-z_]+\\\}/g, '([^/]+)');
        return { template, pattern: new RegExp(`^${source}$`), templated: (template.match(/\{/g) ?? []).length, item };
      })
      // The most specific path first: fewer placeholders, then more literal text (`{page_key}.csv` before `{page_key}`).
      .sort((a, b) => a.templated - b.templated || b.template.length - a.template.length);
    this.#ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, validateSchema: false });
    addFormats.default(this.#ajv);
    // rdw's annotations, and the document's own top-level members: the document is registered as one
    // resource whose schemas are compiled only where a pointer reaches into it.
    this.#ajv.addVocabulary(['x-rdw-role', 'x-rdw-unit', 'x-rdw-window', 'x-rdw-measure']);
    this.#ajv.addVocabulary(Object.keys(document).filter((key) => key !== '$id'));
    // The document is registered whole, so `#/components/...` references resolve inside it.
    this.#ajv.addSchema({ ...document, $id: 'openapi.json' } as Json, undefined, undefined, false);
  }

  /** The path template serving `url` (absolute), or undefined. */
  route(url: string): string | undefined {
    const path = new URL(url).pathname;
    return this.#routes.find((route) => route.pattern.test(path))?.template;
  }

  /** Judges a GET answer for `url`. */
  check(url: string, answer: HttpAnswer): OpenApiVerdict {
    const problems: string[] = [];
    const template = this.route(url);
    if (template === undefined) return { operationId: undefined, documented: false, problems: [`no path of the document serves ${new URL(url).pathname}`] };
    const operation = (this.#document.paths as Record<string, Json>)[template]!.get as Json | undefined;
    if (!operation) return { operationId: undefined, documented: false, problems: [`${template} has no GET`] };
    const responses = operation.responses as Record<string, Json>;
    const key = String(answer.status) in responses ? String(answer.status) : 'default' in responses ? 'default' : undefined;
    if (key === undefined) return { operationId: operation.operationId as string, documented: false, problems: [`status ${answer.status} is not documented`] };
    const [response, responsePointer] = this.#resolveResponse(responses[key]!, pointer('paths', template, 'get', 'responses', key));
    // 1. required headers
    for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      if (header.required === true && !answer.headers.has(name)) problems.push(`required header ${name} is missing`);
    }
    // 2. content type
    const content = response.content as Record<string, Json> | undefined;
    if (content) {
      const media = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!(media in content)) {
        problems.push(`content type "${media}" is not one of ${Object.keys(content).join(', ')}`);
      } else if (media === 'application/json' && answer.status !== 206) {
        // 3. the JSON body against the media type's schema
        problems.push(...this.#validateJson(`${responsePointer}/${pointer('content', media, 'schema')}`, answer.text));
      } else if (media.startsWith('text/') && answer.text.length === 0) {
        problems.push('the text body is empty');
      }
    }
    return { operationId: operation.operationId as string, documented: key !== 'default', problems };
  }

  /** Problems of a JSON body against the component schema `name` (empty = conforms). */
  validateComponent(name: string, text: string): string[] {
    return this.#validateJson(pointer('components', 'schemas', name), text);
  }

  #resolveResponse(response: Json, at: string): [Json, string] {
    const ref = response.$ref;
    if (typeof ref !== 'string') return [response, at];
    const name = ref.replace('#/components/responses/', '');
    return [(this.#document.components as { responses: Record<string, Json> }).responses[name]!, pointer('components', 'responses', name)];
  }

  #validateJson(schemaPointer: string, text: string): string[] {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`the body is not JSON: ${text.slice(0, 80)}`];
    }
    const validate = this.#ajv.getSchema(`openapi.json#/${schemaPointer}`);
    if (!validate) return [`no schema at ${schemaPointer}`];
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((error) => `body${error.instancePath} ${error.message ?? 'is invalid'}`);
  }
}
