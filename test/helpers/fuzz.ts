// The route fuzzer shared by the seed-fixed test (test/foundation/fuzz.test.ts, through fastify.inject) and the
// soak run (scripts/soak.ts, over HTTP against several instances): requests generated from the API document, and
// the rule an answer must keep.
import fc from 'fast-check';

export interface FuzzOperation {
  method: string;
  path: string;
  properties: string[];
}

export interface FuzzRequest {
  method: string;
  url: string;
  /** The raw body; absent for GET and DELETE. */
  payload?: string;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>>;
}

/** Every documented operation with the property names of its request body. */
export function fuzzOperations(document: OpenApiDocument): FuzzOperation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      properties: Object.values(operation.requestBody?.content ?? {}).flatMap((content) => Object.keys(content.schema?.properties ?? {})),
    })),
  );
}

const edgeStrings = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '\ud800', '😀'.repeat(50), 'a'.repeat(5000), '../../etc/passwd', '%00', '${x}', '<script>', 'NaN', '-0', '1e309'),
);
const edgeNumbers = fc.oneof(fc.double(), fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 0, 1e308, -1e308, 2 ** 53), fc.integer());
const leaf = fc.oneof(edgeStrings, edgeNumbers, fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), tie('node'), { maxKeys: 4 })),
})).node;
const DEEP_NESTING = '{"deep":'.repeat(200);

/** Bodies shaped from the route's own property names, with extra properties, any JSON value, or unclosed deep nesting. */
function payloadFor(operation: FuzzOperation): fc.Arbitrary<string> {
  const known = operation.properties.length ? fc.dictionary(fc.constantFrom(...operation.properties), value, { maxKeys: operation.properties.length }) : fc.constant({});
  const json = fc.oneof(known, fc.tuple(known, fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a })), value);
  return fc.oneof({ arbitrary: json.map((body) => JSON.stringify(body)), weight: 3 }, { arbitrary: fc.constant(DEEP_NESTING), weight: 1 });
}

/** One generated request: any operation, its body, and arbitrary values in its path parameters. */
export function fuzzRequests(operations: FuzzOperation[]): fc.Arbitrary<FuzzRequest> {
  return fc
    .integer({ min: 0, max: operations.length - 1 })
    .chain((index) => fc.tuple(fc.constant(operations[index]), payloadFor(operations[index]), fc.array(edgeStrings, { minLength: 3, maxLength: 3 })))
    .map(([operation, payload, params]) => {
      let position = 0;
      const url = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(Buffer.from(params[position++ % params.length]).toString()) || 'x');
      const bodyless = operation.method === 'GET' || operation.method === 'DELETE';
      return { method: operation.method, url, ...(bodyless ? {} : { payload }) };
    });
}

/**
 * What is wrong with an answer to a generated request, or null: no 5xx but the specified 501/503, and every
 * error in the contract's body.
 */
export function fuzzViolation(request: FuzzRequest, status: number, body: string): string | null {
  if (status >= 500 && status !== 501 && status !== 503) return `${request.method} ${request.url} → ${status} ${body.slice(0, 200)}`;
  if (status < 400) return null;
  let answer: { code?: unknown; requestId?: unknown };
  try {
    answer = JSON.parse(body);
  } catch {
    return `${request.method} ${request.url} → ${status} without a JSON body`;
  }
  if (typeof answer.code !== 'string' || typeof answer.requestId !== 'string' || !answer.requestId.startsWith('req_')) {
    return `${request.method} ${request.url} → ${status} without the contract's error body: ${body.slice(0, 200)}`;
  }
  return null;
}
