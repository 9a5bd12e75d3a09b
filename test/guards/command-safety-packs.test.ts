// The opt-in packs: each blocks its tools' destructive commands only when named in `packs`, and
// none of them blocks anything in the ordinary corpora or the near misses below.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeCommand, type JudgeContext } from '../../src/guards/command-safety.js';
import { commandSafetyOptionsSchema, PACKS, type Pack } from '../../src/guards/command-safety/options.js';

const BASE: JudgeContext = { cwd: '/home/dev/project', projectDir: '/home/dev/project', home: '/home/dev', tmpDir: '/tmp' };
const ALL = { packs: [...PACKS] };

const DANGEROUS: Record<Pack, [string, string][]> = {
  database: [
    ['psql -c "DROP TABLE users;"', 'sql-destroy'],
    ['psql -h db -U app --command="drop database production"', 'sql-destroy'],
    ['mysql -u root -e "TRUNCATE TABLE orders"', 'sql-destroy'],
    ['mysql -e "DELETE FROM sessions;"', 'sql-destroy'],
    ['sqlite3 app.db "DROP TABLE users"', 'sql-destroy'],
    ["psql app <<'SQL'\nBEGIN;\nDROP SCHEMA public CASCADE;\nSQL", 'sql-destroy'],
    ['echo "drop table users" | psql app', 'sql-destroy'],
    ['mysql app <<< "truncate orders"', 'sql-destroy'],
    ['mongosh app --eval "db.dropDatabase()"', 'sql-destroy'],
    ['mongo app --eval "db.users.drop()"', 'sql-destroy'],
    ['mongosh app --eval "db.users.deleteMany({})"', 'sql-destroy'],
    ['dropdb production', 'drop-database'],
    ['mysqladmin -u root drop shop', 'drop-database'],
    ['redis-cli FLUSHALL', 'redis-flush'],
    ['redis-cli -h cache -n 2 flushdb', 'redis-flush'],
    ['echo FLUSHALL | redis-cli', 'redis-flush'],
    ['sudo -u postgres psql -c "drop database app"', 'sql-destroy'],
    ['bash -c \'psql -c "DROP TABLE t"\'', 'sql-destroy'],
    ['rails db:drop', 'framework-reset'],
    ['npx prisma migrate reset --force', 'framework-reset'],
    ['php artisan migrate:fresh', 'framework-reset'],
    ['python manage.py flush --noinput', 'framework-reset'],
  ],
  kubernetes: [
    ['kubectl delete ns prod', 'delete-namespace-or-storage'],
    ['kubectl delete namespace staging --wait=false', 'delete-namespace-or-storage'],
    ['kubectl -n prod delete pvc data-db-0', 'delete-namespace-or-storage'],
    ['kubectl delete pods --all', 'delete-all'],
    ['kubectl delete deploy -A -l app=web', 'delete-all'],
    ['kubectl delete all -l app=web', 'delete-all'],
    ['kubectl delete crd certificates.cert-manager.io', 'delete-namespace-or-storage'],
    ['oc delete project-x --all', 'delete-all'],
    ['helm uninstall web -n prod', 'helm-uninstall'],
    ['helm delete web', 'helm-uninstall'],
  ],
  infrastructure: [
    ['terraform destroy', 'destroy'],
    ['terraform destroy -auto-approve -target=aws_instance.web', 'destroy'],
    ['terraform -chdir=infra apply -auto-approve -destroy', 'destroy'],
    ['tofu destroy', 'destroy'],
    ['terragrunt run-all destroy', 'destroy'],
    ['terraform state rm aws_s3_bucket.logs', 'state-remove'],
    ['pulumi destroy --yes', 'destroy'],
    ['pulumi down -s prod -y', 'destroy'],
    ['pulumi stack rm prod --force', 'state-remove'],
    ['npx cdk destroy --all --force', 'destroy'],
  ],
  cloud: [
    ['aws s3 rm s3://bucket --recursive', 'storage-delete'],
    ['aws --profile prod s3 rb s3://bucket --force', 'storage-delete'],
    ['aws s3 sync ./site s3://bucket --delete', 'storage-delete'],
    ['aws s3api delete-bucket --bucket logs', 'storage-delete'],
    ['aws ec2 terminate-instances --instance-ids i-0abc', 'compute-delete'],
    ['aws rds delete-db-instance --db-instance-identifier prod', 'resource-delete'],
    ['aws cloudformation delete-stack --stack-name prod', 'resource-delete'],
    ['aws dynamodb delete-table --table-name users', 'resource-delete'],
    ['gcloud compute instances delete vm-1 --zone us-east1-b', 'resource-delete'],
    ['gcloud projects delete my-project', 'resource-delete'],
    ['gcloud storage rm --recursive gs://bucket', 'storage-delete'],
    ['gsutil -m rm -r gs://bucket/**', 'storage-delete'],
    ['gsutil rb gs://bucket', 'storage-delete'],
    ['az group delete -n prod --yes', 'resource-delete'],
    ['az vm delete -g rg -n vm1 --yes', 'compute-delete'],
    ['az storage blob delete-batch -s container', 'storage-delete'],
    ['azcopy remove https://acct.blob.core.windows.net/c --recursive', 'storage-delete'],
  ],
  docker: [
    ['docker volume rm app_data', 'volume-delete'],
    ['docker volume prune', 'volume-delete'],
    ['podman volume rm db', 'volume-delete'],
    ['podman volume prune', 'volume-delete'],
    ['docker compose down -v', 'volume-delete'],
    ['docker compose -f prod.yml down --volumes', 'volume-delete'],
    ['docker-compose down -v', 'volume-delete'],
  ],
};

/** Everyday commands of the same tools, and the dangerous words as data: none may be blocked. */
const NEAR_MISSES = [
  'psql -c "SELECT * FROM users LIMIT 10"',
  'psql -c "DELETE FROM sessions WHERE expires_at < now()"',
  'mysql -e "SHOW TABLES"',
  'pg_dump production > backup.sql',
  'git commit -m "DROP TABLE users in migration 12"',
  'grep -rn "DROP TABLE" migrations/',
  "cat > migrate.sql <<'SQL'\nDROP TABLE old_users;\nSQL",
  'echo "redis-cli FLUSHALL clears the cache"',
  'redis-cli GET session:1',
  'redis-cli --scan --pattern "user:*"',
  'mongosh app --eval "db.users.find().limit(5)"',
  'rails db:migrate',
  'npx prisma migrate deploy',
  'kubectl get ns',
  'kubectl delete pod web-0',
  'kubectl delete -f job.yaml',
  'kubectl logs deploy/web --all-containers',
  'kubectl describe pvc data-db-0',
  'helm list -A',
  'helm upgrade --install web ./chart',
  'terraform plan -destroy',
  'terraform apply -auto-approve',
  'terraform state list',
  'terraform fmt -recursive',
  'pulumi preview',
  'pulumi up --yes',
  'aws s3 ls s3://bucket',
  'aws s3 cp ./a.zip s3://bucket/a.zip',
  'aws s3 sync ./site s3://bucket',
  'aws s3 rm s3://bucket/tmp/x.log --dryrun',
  'aws ec2 describe-instances',
  'aws ec2 terminate-instances --instance-ids i-0abc --dry-run',
  'aws sqs delete-message --queue-url q --receipt-handle h',
  'gcloud compute instances list',
  'gcloud config set project p',
  'gsutil ls gs://bucket',
  'gsutil cp a gs://bucket/a',
  'az group list',
  'az vm show -g rg -n vm1',
  'docker volume ls',
  'docker volume create data',
  'docker compose down',
  'docker compose up -d',
  'docker system prune -f',
  'docker rm web',
];

describe('command-safety packs', () => {
  for (const pack of PACKS) {
    describe(pack, () => {
      it.each(DANGEROUS[pack])('%j is blocked (%s) only with the pack on', (command, rule) => {
        expect(judgeCommand(command, { packs: [pack] }, BASE)).toMatchObject({ verdict: 'block', category: pack, rule });
        const without = judgeCommand(command, {}, BASE);
        // Off by default, unless a built-in category catches it anyway (docker-wipe).
        if (without.verdict !== 'allow') expect(without.category).not.toBe(pack);
      });
    });
  }

  it.each(NEAR_MISSES)('%j passes with every pack on', (command) => {
    expect(judgeCommand(command, ALL, BASE)).toEqual({ verdict: 'allow' });
  });

  it('blocks nothing new in the ordinary corpora with every pack on', () => {
    const load = (name: string) => JSON.parse(readFileSync(new URL(`./corpus/${name}`, import.meta.url), 'utf8')) as { ordinary: { command: string; cwd?: string }[] };
    const ordinary = [...load('command-safety.json').ordinary, ...load('command-safety-extended.json').ordinary];
    expect(ordinary.length).toBeGreaterThan(300);
    // Deleting one named volume is ordinary by default; the docker pack exists to block it.
    const newBlocks = ordinary.filter((c) => !/^docker volume (?:rm|prune)\b/.test(c.command)).filter((c) => {
      const at = { ...BASE, ...(c.cwd !== undefined ? { cwd: c.cwd } : {}) };
      return judgeCommand(c.command, ALL, at).verdict !== judgeCommand(c.command, {}, at).verdict;
    });
    expect(newBlocks.map((c) => c.command)).toEqual([]);
  });

  it('takes a mode per pack: ask, or false to leave it off', () => {
    expect(judgeCommand('terraform destroy', { packs: { infrastructure: 'ask' } }, BASE)).toMatchObject({ verdict: 'ask', category: 'infrastructure' });
    expect(judgeCommand('terraform destroy', { packs: { infrastructure: false, cloud: true } }, BASE)).toEqual({ verdict: 'allow' });
    expect(judgeCommand('terraform destroy', { packs: [] }, BASE)).toEqual({ verdict: 'allow' });
    // A later block in the same command wins over an ask.
    expect(judgeCommand('terraform destroy; rm -rf /', { packs: { infrastructure: 'ask' } }, BASE)).toMatchObject({ verdict: 'block', category: 'filesystem-destruction' });
  });

  it('lets allow patterns exempt a pack finding', () => {
    expect(judgeCommand('helm uninstall preview-42', { packs: ['kubernetes'], allow: ['helm uninstall preview-*'] }, BASE)).toEqual({ verdict: 'allow' });
    expect(judgeCommand('helm uninstall prod', { packs: ['kubernetes'], allow: ['helm uninstall preview-*'] }, BASE)).toMatchObject({ verdict: 'block' });
  });

  it('names the file key path of a bad pack name', () => {
    expect(commandSafetyOptionsSchema.safeParse({ packs: ['database', 'kubernetes'] }).success).toBe(true);
    expect(commandSafetyOptionsSchema.safeParse({ packs: { cloud: 'ask' } }).success).toBe(true);
    const bad = commandSafetyOptionsSchema.safeParse({ packs: ['databases'] });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain('packs');
    expect(commandSafetyOptionsSchema.safeParse({ packs: { aws: true } }).success).toBe(false);
  });

  it('never throws, and packs only ever add blocks (property)', () => {
    const vocabulary = ['kubectl', 'helm', 'terraform', 'pulumi', 'aws', 'gcloud', 'gsutil', 'az', 'azcopy', 'docker', 'psql', 'mysql', 'redis-cli', 'mongosh', 'sqlite3',
      'delete', 'destroy', 'rm', 'rb', 'volume', 'compose', 'down', '-v', '--all', '-A', 'ns', 's3', 'ec2', 'terminate-instances', '-c', '-e', '--eval', '"DROP TABLE t"',
      "'TRUNCATE x'", 'FLUSHALL', '--recursive', '--force', '--dryrun', 'apply', '-destroy', 'state', 'uninstall', '|', ';', '&&', '<<<', '--', '-n', 'prod', "'db.dropDatabase()'"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 9 }), (words) => {
        const command = words.join(' ');
        const withPacks = judgeCommand(command, ALL, BASE);
        const without = judgeCommand(command, {}, BASE);
        if (without.verdict === 'block') expect(withPacks.verdict).toBe('block');
        expect(judgeCommand(command, ALL, BASE)).toEqual(withPacks);
      }),
      { seed: 27, numRuns: 400, interruptAfterTimeLimit: 20_000 },
    );
  });
});
