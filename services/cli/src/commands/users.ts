import type { Command } from 'commander';
import { loadEndpoints } from '@warden/shared/config';
import { UserDirectory, isRole, ROLES, type CreatedUser } from '@warden/shared/users/index';
import { connectPostgres } from './keys';

/** The whole of stdin, without the one line ending `echo` or a here-string adds. */
async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new Error(
      'the password is read from stdin: pipe it in, e.g. `printf %s "$PASSWORD" | npx warden users create …`',
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export async function createUser(input: {
  email: string;
  organisation: string;
  role: string;
  password: string;
}): Promise<CreatedUser> {
  if (!isRole(input.role)) throw new Error(`unknown role "${input.role}"; use one of: ${ROLES.join(', ')}`);
  const pool = await connectPostgres(loadEndpoints().databaseUrl);
  try {
    return await new UserDirectory(pool, 'cli').createUser({ ...input, role: input.role });
  } finally {
    await pool.end();
  }
}

export function registerUsersCommands(program: Command): void {
  const users = program.command('users').description('people who sign in (stored in PostgreSQL)');
  users
    .command('create')
    .description(
      'create a user with a role in an organisation (created when new: its first user is its owner); password on stdin',
    )
    .requiredOption('--email <email>', 'sign-in email')
    .requiredOption('--org <name>', 'organisation name or id')
    .option('--role <role>', ROLES.join(' | '), 'member')
    .option('--json', 'print {"userId","email","organisationId","organisation","role","organisationCreated"}')
    .action(async (opts: { email: string; org: string; role: string; json?: boolean }) => {
      const created = await createUser({
        email: opts.email,
        organisation: opts.org,
        role: opts.role,
        password: await readPassword(),
      });
      if (opts.json) {
        console.log(JSON.stringify(created));
        return;
      }
      process.stderr.write(
        `created ${created.userId} (${created.email}), ${created.role} of ${created.organisation} (${created.organisationId}` +
          `${created.organisationCreated ? ', new' : ''})\n`,
      );
    });
  users
    .command('reset-password')
    .description(
      'print a one-time password reset token (valid 1 h; only its hash is kept) to spend at POST /api/v1/auth/reset',
    )
    .requiredOption('--email <email>', 'the user whose password is reset')
    .option('--json', 'print {"token","expiresAt"}')
    .action(async (opts: { email: string; json?: boolean }) => {
      const pool = await connectPostgres(loadEndpoints().databaseUrl);
      try {
        const { token, expiresAt } = await new UserDirectory(pool, 'cli').createResetToken(opts.email);
        if (opts.json) {
          console.log(JSON.stringify({ token, expiresAt: expiresAt.toISOString() }));
          return;
        }
        console.log(token);
        process.stderr.write(
          `reset token for ${opts.email.trim()}, valid until ${expiresAt.toISOString()}; earlier tokens no longer work.\n` +
            'Set the password with POST /api/v1/auth/reset {"token","password"} (every session of the user ends).\n',
        );
      } finally {
        await pool.end();
      }
    });
}
