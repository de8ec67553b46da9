// Module customization hook of the node-suite runner (registered by hook.js):
// `import ... from 'node:child_process'` (or 'child_process') outside the
// package resolves to child_process.mjs, the package as an ES module.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const NAMES = new Set(['child_process', 'node:child_process']);
const WRAPPER = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'child_process.mjs')).href;
let packageURL = null;

export function initialize(data) {
  packageURL = pathToFileURL(data.packageDir).href + '/';
}

export function resolve(specifier, context, next) {
  const parent = context.parentURL || '';
  const fromPackage = packageURL !== null && parent.startsWith(packageURL) &&
    !parent.startsWith(packageURL + 'node_modules/') && parent !== WRAPPER;
  if (NAMES.has(specifier) && !fromPackage) {
    return { url: WRAPPER, shortCircuit: true };
  }
  return next(specifier, context);
}
