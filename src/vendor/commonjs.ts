import path from 'node:path';
import vm from 'node:vm';

/**
 * Runs `source` as the CommonJS module `file`, through vm.Script so that V8 can take (and later make) a code cache:
 * the launcher runs the CLI bundle so (src/cli/launch.ts), and the bundle its vendor libraries (src/vendor/load.ts).
 */
export function runCommonJs(file: string, source: string, data: Buffer | undefined, module: { exports: unknown }, require: NodeJS.Require): vm.Script {
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(data === undefined ? {} : { cachedData: data }),
  });
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, file, path.dirname(file));
  return script;
}
