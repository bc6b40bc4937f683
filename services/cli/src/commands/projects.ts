import type { Command } from 'commander';
import { parseTier, type PostgresKeys, type ProjectListing } from '@warden/shared/keys/index';
import { findOrganisation } from '@warden/shared/users/index';
import { formatTable } from '../table';
import { withKeyStore } from './keys';

async function organisationId(source: PostgresKeys, org: string): Promise<string> {
  const found = await findOrganisation(source.pool, org);
  if (!found) throw new Error(`no organisation "${org}"; create it with \`npx warden users create --org …\``);
  return found.organisationId;
}

function printProjects(projects: ProjectListing[]): void {
  if (projects.length === 0) {
    console.log('no projects');
    return;
  }
  console.log(
    formatTable(
      ['project', 'name', 'tier', 'organisation', 'active keys', 'created'],
      projects.map((p) => [
        p.projectId,
        p.name,
        p.tier,
        p.organisation ?? '-',
        String(p.activeKeys),
        p.createdAt,
      ]),
    ),
  );
}

export function registerProjectsCommands(program: Command): void {
  const projects = program
    .command('projects')
    .description("projects: the data plane's accounts (tier, limits), stored in PostgreSQL");
  projects
    .command('create')
    .description('create a project; its id is the accountId on every record its keys send')
    .requiredOption('--id <id>', 'project id (letters, digits, . _ @ -)')
    .option('--name <name>', 'display name (default: the id)')
    .option('--org <name>', 'organisation name or id')
    .option('--tier <tier>', 'starter | free | professional | business | enterprise', 'free')
    .option('--json', 'print JSON')
    .action(async (opts: { id: string; name?: string; org?: string; tier: string; json?: boolean }) => {
      const tier = parseTier(opts.tier);
      const account = await withKeyStore(async (store, source) =>
        store.createProject({
          accountId: opts.id,
          tier,
          ...(opts.name ? { name: opts.name } : {}),
          ...(opts.org ? { organisationId: await organisationId(source, opts.org) } : {}),
        }),
      );
      if (opts.json) console.log(JSON.stringify({ projectId: account.accountId, tier: account.tier }));
      else process.stderr.write(`created project ${account.accountId} (${account.tier})\n`);
    });
  projects
    .command('list')
    .description('list projects with their tier, organisation and number of active keys')
    .option('--org <name>', 'only this organisation (name or id)')
    .option('--json', 'print JSON')
    .action(async (opts: { org?: string; json?: boolean }) => {
      const list = await withKeyStore(async (_store, source) =>
        source.listProjects(opts.org ? await organisationId(source, opts.org) : undefined),
      );
      if (opts.json) console.log(JSON.stringify(list, null, 2));
      else printProjects(list);
    });
}
