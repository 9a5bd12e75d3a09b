// The `database` pack: SQL that drops or empties data, given to a database client, and the
// clients' own drop commands. Only text a client will execute is read: the same SQL in a commit
// message, a grep pattern or a file written with `cat` is data.
import type { SimpleCommand } from '../../shell/types.js';
import type { Finding } from '../finding.js';
import { flag, packFinding, positionals } from './finding.js';

/** SQL clients and the options whose value is SQL they run. */
const SQL_CLIENTS: Readonly<Record<string, readonly string[]>> = {
  psql: ['-c', '--command'],
  mysql: ['-e', '--execute'],
  mariadb: ['-e', '--execute'],
  sqlite3: ['-cmd'],
  duckdb: ['-c', '-cmd'],
  sqlcmd: ['-q', '-Q', '--query'],
  'clickhouse-client': ['-q', '--query'],
  clickhouse: ['-q', '--query'],
  cockroach: ['-e', '--execute'],
  snowsql: ['-q', '--query'],
  bq: [],
  mongosh: ['--eval'],
  mongo: ['--eval'],
};

const DROP = /\bdrop\s+(?:table|database|schema|keyspace|collection)\b/i;
const TRUNCATE = /(?:^|[;(\s])truncate\s+(?:table\s+)?[\w"`.[\]]+/i;
/** `DELETE FROM t` that ends (`;`, end, `)`) before any WHERE: every row. */
const DELETE_ALL = /\bdelete\s+from\s+[\w"`.[\]]+\s*(?:;|$|\))/im;
const MONGO_DROP = /\.\s*(?:dropDatabase|drop)\s*\(|\.\s*(?:deleteMany|remove)\s*\(\s*\{\s*\}\s*\)/;

/** Why `sql` destroys data, or undefined. */
export function destructiveSql(sql: string): string | undefined {
  const drop = DROP.exec(sql);
  if (drop) return drop[0].replace(/\s+/g, ' ').toUpperCase();
  if (TRUNCATE.test(sql)) return 'TRUNCATE';
  if (DELETE_ALL.test(sql)) return 'DELETE without WHERE';
  if (MONGO_DROP.test(sql)) return 'drop or delete-all of a MongoDB collection or database';
  return undefined;
}

/** Text the client reads on stdin: heredoc and here-string bodies, `echo`/`printf` piped in. */
function stdinText(cmd: SimpleCommand): string[] {
  const texts: string[] = [];
  for (const r of cmd.redirects) if (r.body !== undefined && (r.op === '<<' || r.op === '<<-' || r.op === '<<<')) texts.push(r.body);
  for (const c of cmd.pipedFrom) if (c.argv[0] === 'echo' || c.argv[0] === 'printf' || c.argv[0] === 'cat') texts.push(c.argv.slice(1).join(' '), ...c.redirects.flatMap((r) => (r.body !== undefined ? [r.body] : [])));
  return texts;
}

function sqlArguments(cmd: SimpleCommand, options: readonly string[]): string[] {
  const { argv } = cmd;
  const out: string[] = [];
  for (let i = 1; i < argv.length; i += 1) {
    const a = argv[i]!;
    for (const o of options) {
      if (a === o) out.push(argv[i + 1] ?? '');
      else if (o.startsWith('--') && a.startsWith(`${o}=`)) out.push(a.slice(o.length + 1));
      else if (!o.startsWith('--') && o.length === 2 && a.startsWith(o) && a.length > 2) out.push(a.slice(2));
    }
  }
  // sqlite3 and duckdb take SQL as the operand after the database file; bq takes it after `query`.
  if (argv[0] === 'sqlite3' || argv[0] === 'duckdb') out.push(...positionals(argv, new Set(['-cmd', '-separator', '-newline', '-nullvalue', '-init'])).slice(1));
  if (argv[0] === 'bq') {
    const p = positionals(argv, new Set());
    if (p[0] === 'query') out.push(...p.slice(1));
  }
  return out;
}

export function databaseRule(cmd: SimpleCommand): Finding | undefined {
  const [program, ...rest] = cmd.argv;
  if (program === undefined) return undefined;
  const options = SQL_CLIENTS[program];
  if (options !== undefined) {
    for (const sql of [...sqlArguments(cmd, options), ...stdinText(cmd)]) {
      const why = destructiveSql(sql);
      if (why !== undefined) return packFinding('database', 'sql-destroy', `${program} runs ${why}`, cmd);
    }
  }
  if (program === 'dropdb') return packFinding('database', 'drop-database', 'dropdb deletes a database', cmd);
  if ((program === 'mysqladmin' || program === 'mariadb-admin') && positionals(cmd.argv, new Set(['-u', '-p', '-h', '-P', '-S', '--user', '--host', '--port', '--socket'])).some((w) => w.toLowerCase() === 'drop')) {
    return packFinding('database', 'drop-database', `${program} drop deletes a database`, cmd);
  }
  if (program === 'redis-cli' || program === 'valkey-cli' || program === 'keydb-cli') {
    const words = [...rest, ...stdinText(cmd).flatMap((t) => t.split(/\s+/))];
    const flush = words.find((w) => /^flush(?:all|db)$/i.test(w));
    if (flush) return packFinding('database', 'redis-flush', `${program} ${flush.toUpperCase()} deletes every key`, cmd);
  }
  if (program === 'mongorestore' && flag(cmd.argv, ['drop'])) return packFinding('database', 'drop-database', 'mongorestore --drop drops each collection before restoring it', cmd);
  return frameworkReset(cmd);
}

/** Framework commands that drop or recreate the database. */
function frameworkReset(cmd: SimpleCommand): Finding | undefined {
  const p = positionals(cmd.argv, new Set(['-e', '--environment', '--schema', '--settings']));
  const [program] = cmd.argv;
  const hit = (what: string): Finding => packFinding('database', 'framework-reset', what, cmd);
  if ((program === 'rails' || program === 'rake') && p.some((w) => /^db:(?:drop|reset|purge|schema:load|migrate:reset)(?::|$)/.test(w))) return hit(`${program} ${p.find((w) => w.startsWith('db:'))} deletes the database's data`);
  if (program === 'prisma' && p[0] === 'migrate' && p[1] === 'reset') return hit('prisma migrate reset drops the database');
  if (program === 'prisma' && p[0] === 'db' && p[1] === 'push' && flag(cmd.argv, ['force-reset'])) return hit('prisma db push --force-reset drops the database');
  if ((program === 'php' && p[0] === 'artisan' && /^(?:migrate:fresh|migrate:reset|db:wipe)$/.test(p[1] ?? '')) || (program === 'artisan' && /^(?:migrate:fresh|migrate:reset|db:wipe)$/.test(p[0] ?? ''))) return hit(`artisan ${program === 'php' ? p[1] : p[0]} drops every table`);
  if (/^python[\d.]*$/.test(program ?? '') && /(?:^|\/)manage\.py$/.test(p[0] ?? '') && (p[1] === 'flush' || p[1] === 'reset_db')) return hit(`manage.py ${p[1]} deletes every row`);
  if (program === 'django-admin' && p[0] === 'flush') return hit('django-admin flush deletes every row');
  return undefined;
}
