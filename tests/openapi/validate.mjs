// Validates the served OpenAPI document with a standard validator (@apidevtools/swagger-parser:
// the OpenAPI 3.0 JSON schema plus its semantic checks), then checks recorded real responses
// against the document's response schemas with Ajv. Run by tests/integration/discovery/openapi_test.cpp:
//
//   node validate.mjs DOC_URL [SAMPLES_FILE]
//
// SAMPLES_FILE: a JSON array of {"method", "path" (below the REST root, with query), "status",
// "headers" (lower-case names), "body" (text)}. Prints one line per check, "ok <what>" or
// "FAIL <what>: <why>", then "summary: N ok, M failed"; exits non-zero on any failure.
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import { readFileSync } from 'node:fs';

const [docUrl, samplesFile] = process.argv.slice(2);
let ok = 0;
let failed = 0;
const pass = (what) => { ok++; console.log(`ok ${what}`); };
const fail = (what, why) => { failed++; console.log(`FAIL ${what}: ${why}`); };

function finish() {
  console.log(`summary: ${ok} ok, ${failed} failed`);
  process.exit(failed === 0 && ok > 0 ? 0 : 1);
}

// The operation template matching a concrete full path ("/api/cal/events/v1/events/5"): below
// the path item's own server if it has one (the REST root index), else below the document's.
function matchPath(paths, fullPath, serverPath) {
  const candidates = Object.keys(paths).filter((template) => {
    const item = paths[template];
    const base = item.servers ? new URL(item.servers[0].url).pathname.replace(/\/$/, '') : serverPath;
    if (!fullPath.startsWith(base)) return false;
    const below = fullPath.slice(base.length) || '/';
    const re = new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$');
    return re.test(below);
  });
  // A literal segment beats a variable one (/events/by-slug/{slug} over /events/{id}/...).
  candidates.sort((a, b) => (a.match(/\{/g) || []).length - (b.match(/\{/g) || []).length);
  return candidates[0];
}

async function main() {
  if (!docUrl) {
    fail('arguments', 'usage: node validate.mjs DOC_URL [SAMPLES_FILE]');
    return finish();
  }
  let doc;
  try {
    const response = await fetch(docUrl);
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    doc = await response.json();
    pass(`GET ${docUrl} is JSON`);
  } catch (e) {
    fail(`GET ${docUrl}`, e.message);
    return finish();
  }
  let api;
  try {
    await SwaggerParser.validate(structuredClone(doc));
    pass('document passes the OpenAPI 3.0 validator');
    api = await SwaggerParser.dereference(structuredClone(doc));
  } catch (e) {
    fail('document passes the OpenAPI 3.0 validator', e.message);
    return finish();
  }
  // Rules of OpenAPI 3.0 the schema alone cannot check.
  const ids = new Set();
  const problems = [];
  for (const [template, item] of Object.entries(api.paths)) {
    const variables = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      if (method === 'servers') continue;  // the path item's own server, not an operation
      if (ids.has(op.operationId)) problems.push(`operationId ${op.operationId} is not unique`);
      ids.add(op.operationId);
      const inPath = (op.parameters || []).filter((p) => p.in === 'path').map((p) => p.name);
      for (const v of variables) {
        if (!inPath.includes(v)) problems.push(`${method} ${template}: path parameter ${v} not declared`);
      }
      for (const p of inPath) {
        if (!variables.includes(p)) problems.push(`${method} ${template}: path parameter ${p} not in the path`);
      }
    }
  }
  if (problems.length) fail('path parameters and operation ids', problems.join('; '));
  else pass('path parameters and operation ids');
  if (!samplesFile) return finish();

  const serverPath = new URL(doc.servers[0].url).pathname.replace(/\/$/, '');  // /api/cal/events/v1
  const restRoot = new URL(docUrl).pathname.replace(/\/cal\/events\/v1\/doc$/, '');  // /api
  const ajv = new Ajv({ strict: false, allErrors: true });
  const samples = JSON.parse(readFileSync(samplesFile, 'utf8'));
  for (const s of samples) {
    const what = `${s.method} ${s.path} -> ${s.status}`;
    const fullPath = restRoot + s.path.split('?')[0];
    const template = matchPath(api.paths, fullPath, serverPath);
    if (!template) { fail(what, `no path of the document matches ${fullPath}`); continue; }
    const operation = api.paths[template][s.method.toLowerCase()];
    if (!operation) { fail(what, `${template} documents no ${s.method}`); continue; }
    const response = operation.responses[String(s.status)];
    if (!response) {
      fail(what, `${s.method} ${template} documents no status ${s.status} (has ${Object.keys(operation.responses)})`);
      continue;
    }
    // Headers documented as required are on every such answer; the others (CORS) only when they apply.
    const missing = Object.entries(response.headers || {})
      .filter(([h, spec]) => spec.required && !(h.toLowerCase() in s.headers))
      .map(([h]) => h);
    if (missing.length) { fail(what, `documented headers missing: ${missing.join(', ')}`); continue; }
    const schema = response.content?.['application/json']?.schema;
    if (!schema) { pass(`${what} (no body documented)`); continue; }
    let body;
    try {
      body = JSON.parse(s.body);
    } catch (e) {
      fail(what, `body is not JSON: ${e.message}`);
      continue;
    }
    const validate = ajv.compile(schema);
    if (validate(body)) pass(`${what} matches ${s.method} ${template} ${s.status}`);
    else fail(what, `${ajv.errorsText(validate.errors, { separator: '; ' })}; body: ${s.body.slice(0, 400)}`);
  }
  return finish();
}

main().catch((e) => {
  fail('validator', e.stack || e.message);
  finish();
});
