#!/usr/bin/env node
// Writes the OpenAPI document the server serves (built from the route table) to a file, for linting.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildOpenApiDocument, v1Routes } from '../packages/core/dist/index.js';

const out = process.argv[2] ?? 'openapi.json';
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(buildOpenApiDocument(v1Routes, 'http://127.0.0.1:3000'), null, 2)}\n`);
console.log(`openapi: wrote ${out}`);
