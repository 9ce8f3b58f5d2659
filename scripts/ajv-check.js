// ajv-check.js checks cetpgen's meta-schemas with ajv, independently of
// cetpgen's own validator (santhosh-tekuri/jsonschema/v6).
//
//   node scripts/ajv-check.js AJV_DIR SCHEMA_DIR CASES.json
//
// AJV_DIR is what scripts/ajv.sh prints. SCHEMA_DIR holds
// provider.schema.json, tool.schema.json and jsonschema-2020-12.flat.json.
// CASES.json lists {"file": ..., "kind": "provider"|"tool", "value": ...}:
// each value (a spec file converted to JSON) is validated against its
// meta-schema. The meta-schemas are compiled by Ajv2020 with its default
// options, which are its strict mode, and formats from ajv-formats; the
// strict-mode warnings ajv logs are reported, and the test fails on any. The output, on stdout,
// is one JSON object: {"warnings": [...], "results": [{"file", "valid",
// "errors"}]}.
"use strict";
const path = require("path");
const fs = require("fs");

const [ajvDir, schemaDir, casesFile] = process.argv.slice(2);
const need = (name) => require(path.resolve(ajvDir, "node_modules", name));
const Ajv2020 = need("ajv/dist/2020").default;
const addFormats = need("ajv-formats").default;

const warnings = [];
const logger = {
  log: () => {},
  warn: (...args) => warnings.push(args.join(" ")),
  error: (...args) => warnings.push(args.join(" ")),
};
// allowUnionTypes: a JSON Schema is an object or a boolean, so the 2020-12
// meta-schema says type: [object, boolean], which strictTypes only logs by
// default; ajv's own copy of that meta-schema is exempt from the check as
// a meta-schema, and the flattened copy, reached through tool.schema.json,
// is not. Every other strict-mode check stays on.
const ajv = new Ajv2020({ logger, allErrors: true, allowUnionTypes: true });
addFormats(ajv);

const read = (name) => JSON.parse(fs.readFileSync(path.join(schemaDir, name), "utf8"));
ajv.addSchema(read("jsonschema-2020-12.flat.json"));
const validators = {
  provider: ajv.compile(read("provider.schema.json")),
  tool: ajv.compile(read("tool.schema.json")),
};

const results = JSON.parse(fs.readFileSync(casesFile, "utf8")).map((c) => {
  const validate = validators[c.kind];
  const valid = validate(c.value);
  const errors = (validate.errors || []).map((e) => `${e.instancePath || "/"}: ${e.message}`);
  return { file: c.file, valid, errors };
});
process.stdout.write(JSON.stringify({ warnings, results }) + "\n");
