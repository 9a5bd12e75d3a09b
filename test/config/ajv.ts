// Ajv as the schema tests use it: strict mode (unknown keywords, formats, required keys not defined are
// errors), with the one standard format the schema uses (editors know it; Ajv leaves formats to a plugin).
import { Ajv2020 } from 'ajv/dist/2020.js';

export function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addFormat('uri', /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/);
  return ajv;
}
