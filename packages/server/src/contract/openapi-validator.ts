import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const BASE = 'https://explorer.invalid/openapi';

/** Validates response bodies against the served OpenAPI document (JSON Schema 2020-12). */
export interface ResponseValidator {
  /** Returns null when `body` matches the documented response of `operationId` for `status`, else the errors. */
  check(operationId: string, status: number, body: unknown): string | null;
  operationIds(): string[];
  /** The path template of an operation. */
  pathOf(operationId: string): string;
}

/** Compiles every response schema of a served OpenAPI 3.1 document. */
export function createResponseValidator(doc: any): ResponseValidator {
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
