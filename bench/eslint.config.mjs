// ESLint flat config for the JavaScript under bench/ (the Node peer and the
// HTTP servers). ESLint itself is installed by bindings/node (npm ci), so
// the shared rules are loaded from there: `make lint-bench-js`.
import { createRequire } from "node:module";

const require = createRequire(new URL("../bindings/node/package.json", import.meta.url));
const js = require("@eslint/js");
const globals = require("globals");

const rules = {
  "no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
  eqeqeq: ["error", "always", { null: "ignore" }],
  "prefer-const": "error",
};
const runtimes = { ...globals.node, Bun: "readonly", Deno: "readonly" };

export default [
  { ignores: ["**/node_modules/", "results/"] },
  js.configs.recommended,
  {
    files: ["**/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: runtimes },
    rules,
  },
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "commonjs", globals: runtimes },
    rules,
  },
];
