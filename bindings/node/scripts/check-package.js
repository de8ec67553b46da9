'use strict';
// prepack of the fastspawn package. The package is JavaScript only and finds
// its addon in a platform package (npm/<platform>/, see lib/prebuilt.js),
// which it lists as optional dependencies. As in napi-rs projects, those are
// added to package.json only in the copy `make dist` packs (scripts/pack.sh),
// not in the repository, where npm ci could not resolve them before they are
// published. So `npm pack` in bindings/node refuses: its tarball would install
// without an addon. It also refuses when the optional dependencies, the
// platform packages and lib/prebuilt.js disagree on platforms or versions.

const fs = require('node:fs');
const path = require('node:path');
const { PREBUILT, SCOPE } = require('../lib/prebuilt');

function check(root = path.join(__dirname, '..')) {
  const main = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const optional = main.optionalDependencies;
  if (optional === undefined) {
    return [
      'this package would install without its native addon (no platform packages in optionalDependencies): ' +
        'run `make dist` at the repository root, which packs it with the prebuilt addon packages into dist/',
    ];
  }
  const problems = [];
  for (const platform of PREBUILT) {
    const name = `${SCOPE}/${platform}`;
    if (optional[name] !== main.version) {
      problems.push(`optionalDependencies["${name}"] is ${optional[name]}, expected ${main.version}`);
    }
    const file = path.join(root, 'npm', platform, 'package.json');
    const pkg = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
    if (pkg === null) problems.push(`npm/${platform}/package.json is missing`);
    else if (pkg.name !== name || pkg.version !== main.version) {
      problems.push(`npm/${platform}/package.json is ${pkg.name}@${pkg.version}, expected ${name}@${main.version}`);
    }
  }
  for (const name of Object.keys(optional)) {
    if (!PREBUILT.includes(name.slice(SCOPE.length + 1))) problems.push(`${name} is not in lib/prebuilt.js's PREBUILT`);
  }
  return problems;
}

if (require.main === module) {
  const problems = check();
  if (problems.length > 0) {
    for (const p of problems) console.error(`npm pack refused: ${p}`);
    process.exit(1);
  }
}

module.exports = { check };
