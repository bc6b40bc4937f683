import { Command, CommanderError } from 'commander';
import { registerStackCommands } from './commands/stack';

const program = new Command('warden')
  .description('Warden: security telemetry for AI agents')
  .showHelpAfterError('(run `npx warden --help` for usage)');

registerStackCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  console.error(`warden: ${(err as Error).message}`);
  process.exit(1);
}
