import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const BASE = 'https://explorer.invalid/openapi';

/** Validates response bodies against the served OpenAPI document (JSON Schema 2020-12). */
export interface ResponseValidator {
  /** Returns null when `body` matches the documented response of `operationId` for `status`, else the errors. */
  check(operationId: string, status: number, body: unknown): string | null;
  operationIds(): string[];
  /** Returns null when `body` matches the named component schema (e.g. `ErrorEnvelope`), else the errors. */
  checkComponent(name: string, body: unknown): string | null;
  /** The path template of an operation. */
  pathOf(operationId: string): string;
}

/**
 * The document with every object that names its properties closed (`additionalProperties: false`), as zod
 * declares them. The served document leaves success bodies open, as the contract says; our own tests check
 * our answers against the closed form, so that a misspelled or stray member still fails.
 */
export function closeObjects<T>(doc: T): T {
  const close = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(close);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === 'examples' || k === 'default' ? v : close(v);
    if (out.properties && typeof out.properties === 'object' && !('additionalProperties' in out))
      out.additionalProperties = false;
    return out;
  };
  return close(doc) as T;
}

/**
 * Compiles every response schema of a served OpenAPI 3.1 document; `closed` (the default) checks against
 * {@link closeObjects} of it, `closed: false` against the document as served.
 */
export function createResponseValidator(served: any, opts: { closed?: boolean } = {}): ResponseValidator {
  const doc = opts.closed === false ? served : closeObjects(served);
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema({ $id: BASE, components: doc.components });
  const ops = new Map<string, { path: string; responses: Record<string, any> }>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) ops.set(op.operationId, { path, responses: op.responses });
  }
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return {
    operationIds: () => [...ops.keys()],
    checkComponent(name, body) {
      const validate = ajv.getSchema(`${BASE}#/components/schemas/${name}`);
      if (!validate) return `no component ${name}`;
      return validate(body) ? null : ajv.errorsText(validate.errors);
    },
    pathOf: (id) => ops.get(id)!.path,
    check(operationId, status, body) {
      const op = ops.get(operationId);
      if (!op) return `no operation ${operationId}`;
      const response = op.responses[String(status)];
      if (!response) return `status ${status} is not declared for ${operationId}`;
      const key = `${operationId}:${status}`;
      let validate = compiled.get(key);
      if (!validate) {
        const schema = JSON.parse(
          JSON.stringify(response.content['application/json'].schema).replaceAll(
            '"#/components/',
            `"${BASE}#/components/`,
          ),
        );
        validate = ajv.compile(schema);
        compiled.set(key, validate);
      }
      return validate(body) ? null : ajv.errorsText(validate.errors);
    },
  };
}
