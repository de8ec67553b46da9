// A process of child-process.mjs's pool: runs [id, file, args] with execFile
// and sends [id, error, stdout] back over the IPC channel.

import { createRequire } from "node:module";

const i = process.argv.indexOf("--spawn-module");
const { execFile } = createRequire(import.meta.url)(process.argv[i + 1]);

process.on("message", ([id, file, args]) => {
  execFile(file, args, { maxBuffer: 16 << 20 }, (error, stdout) => {
    process.send([id, error ? String(error.message) : null, stdout]);
  });
});
// The parent is gone: nothing left to serve.
process.on("disconnect", () => process.exit(0));
process.send("ready");
