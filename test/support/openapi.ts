/**
 * Checks real responses against the committed OpenAPI document (openapi/openapi.json).
 *
 *   expectMatchesOpenApi('GET', '/v1/packages/{name}', res.statusCode, JSON.parse(res.body));
 *
 * The operation is found by method and path template, the response by exact status: a status the
 * operation does not document is a failure. Bodies are validated with Ajv (JSON Schema 2020-12,
 * formats included) against the response's `application/json` schema. The document is loaded and
 * every response validator compiled once, when this module is first imported.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import committed from '../../openapi/openapi.json';
import type {
  HeaderObject,
  JsonSchema,
  OpenApiDocument,
  Reference,
  ResponseObject,
} from '../../scripts/openapi';

/** The committed document, as parsed from the file. */
export const openApiDocument = committed as unknown as OpenApiDocument;

/** Base URI under which the component schemas are registered with Ajv. */
const COMPONENTS_ID = 'https://openapi.invalid/components.json';
const SCHEMA_REF_PREFIX = '#/components/schemas/';
const RESPONSE_REF_PREFIX = '#/components/responses/';
const JSON_MEDIA_TYPE = 'application/json';

/** Points `#/components/schemas/X` at the Ajv copy of the components (`…components.json#/$defs/X`). */
function retarget(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(retarget);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF_PREFIX)
        ? `${COMPONENTS_ID}#/$defs/${child.slice(SCHEMA_REF_PREFIX.length)}`
        : retarget(child);
  }
  return out;
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
ajv.addSchema({ $id: COMPONENTS_ID, $defs: retarget(openApiDocument.components.schemas) });

function resolveResponse(response: ResponseObject | Reference): ResponseObject {
  if (!('$ref' in response)) return response;
  const name = response.$ref.startsWith(RESPONSE_REF_PREFIX)
    ? response.$ref.slice(RESPONSE_REF_PREFIX.length)
    : undefined;
  const target = name === undefined ? undefined : openApiDocument.components.responses[name];
  if (target === undefined) throw new Error(`Unresolvable response $ref ${response.$ref}`);
  return target;
}

interface CompiledResponse {
  /** Validator of the JSON body; undefined when the response documents no body. */
  readonly body: ValidateFunction | undefined;
  /** The schema as written in the document, for messages. */
  readonly schemaText: string;
  readonly headers: ReadonlyArray<{
    readonly name: string;
    readonly header: HeaderObject;
    readonly validate: ValidateFunction;
  }>;
}

interface CompiledOperation {
  readonly responses: ReadonlyMap<string, CompiledResponse>;
}

function compile(schema: JsonSchema): ValidateFunction {
  return ajv.compile(retarget(schema) as JsonSchema);
}

const operations = new Map<string, CompiledOperation>();
for (const [pathTemplate, item] of Object.entries(openApiDocument.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    if (operation === undefined) continue;
    const responses = new Map<string, CompiledResponse>();
    for (const [status, raw] of Object.entries(operation.responses)) {
      const response = resolveResponse(raw);
      const media = response.content?.[JSON_MEDIA_TYPE];
      responses.set(status, {
        body: media === undefined ? undefined : compile(media.schema),
        schemaText: media === undefined ? '(no body)' : JSON.stringify(media.schema),
        headers: Object.entries(response.headers ?? {}).map(([name, header]) => ({
          name,
          header,
          validate: compile(header.schema),
        })),
      });
    }
    operations.set(operationKey(method, pathTemplate), { responses });
  }
}

function operationKey(method: string, pathTemplate: string): string {
  return `${method.toUpperCase()} ${pathTemplate}`;
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(body)' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let detail = '';
  if (typeof params.additionalProperty === 'string') detail = `: '${params.additionalProperty}'`;
  else if (Array.isArray(params.allowedValues)) detail = `: ${params.allowedValues.map(String).join(', ')}`;
  // Paths inside a component read as `#/components/schemas/…`; others are relative to the response.
  const schema = error.schemaPath.startsWith(COMPONENTS_ID)
    ? ` (${error.schemaPath.replace(`${COMPONENTS_ID}#/$defs/`, SCHEMA_REF_PREFIX)})`
    : '';
  return `${where} ${error.message ?? 'is invalid'}${detail}${schema}`;
}

export interface OpenApiCheckOptions {
  /** Response headers; when given, every required documented header must be present and valid. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

/**
 * The ways a response breaks the document; empty when it matches. `body` is the parsed JSON
 * body (undefined when there is none).
 */
export function openApiViolations(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
  options: OpenApiCheckOptions = {},
): string[] {
  const key = operationKey(method, pathTemplate);
  const operation = operations.get(key);
  if (operation === undefined) {
    return [`${key} is not an operation of the document (documented: ${[...operations.keys()].join('; ')})`];
  }
  const response = operation.responses.get(String(status));
  if (response === undefined) {
    return [`status ${status} is not documented (documented: ${[...operation.responses.keys()].join(', ')})`];
  }
  const violations: string[] = [];
  if (response.body === undefined) {
    if (body !== undefined && body !== '')
      violations.push('the response documents no body, but one was given');
  } else if (!response.body(body)) {
    violations.push(...(response.body.errors ?? []).map(describeError));
  }
  if (options.headers !== undefined) {
    const given = new Map(
      Object.entries(options.headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    for (const { name, header, validate } of response.headers) {
      const value = given.get(name.toLowerCase());
      if (value === undefined) {
        if (header.required === true) violations.push(`header ${name} is missing`);
      } else if (!validate(value)) {
        violations.push(...(validate.errors ?? []).map((e) => `header ${name}: ${describeError(e)}`));
      }
    }
  }
  return violations;
}

/**
 * Throws a readable error listing every violation when the response does not match the
 * document; returns quietly when it does.
 */
export function expectMatchesOpenApi(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
  options: OpenApiCheckOptions = {},
): void {
  const violations = openApiViolations(method, pathTemplate, status, body, options);
  if (violations.length === 0) return;
  const schema = operations
    .get(operationKey(method, pathTemplate))
    ?.responses.get(String(status))?.schemaText;
  const shown = JSON.stringify(body);
  throw new Error(
    [
      `${operationKey(method, pathTemplate)} → ${status} does not match openapi/openapi.json:`,
      ...violations.map((v) => `  - ${v}`),
      ...(schema === undefined ? [] : [`  schema: ${schema}`]),
      `  body: ${shown === undefined ? 'undefined' : shown.length > 500 ? `${shown.slice(0, 500)}…` : shown}`,
    ].join('\n'),
  );
}

/** Violations of one component schema (`#/components/schemas/<name>`) by a value. */
export function componentViolations(name: string, value: unknown): string[] {
  if (!(name in openApiDocument.components.schemas)) return [`no component schema ${name}`];
  const validate = ajv.getSchema(`${COMPONENTS_ID}#/$defs/${name}`);
  if (validate === undefined) return [`Ajv cannot resolve component ${name}`];
  return validate(value) ? [] : (validate.errors ?? []).map(describeError);
}
